package io.sluice.operators.basic;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.CardinalityEffect;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.FilterPushdown;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.ScanRowFilter;
import io.sluice.operators.TaskContext;
import io.sluice.operators.expr.BoundExprs;
import io.sluice.operators.filter.FilterExec;
import io.sluice.operators.sort.SortExec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.util.TransferPair;

/**
 * Computes one column per expression. Partitioning and ordering on columns that pass through
 * (possibly renamed) carry over under their new names. The expressions are bound to the input's
 * columns once per {@link #execute} ({@link BoundExprs}); the plan keeps, sends and prints the
 * logical ones.
 */
public record ProjectionExec(ExecutionPlan input, List<Expr> exprs, Schema schema, PlanProperties properties, long estimatedRows)
        implements ExecutionPlan {
    public ProjectionExec {
        requireNonNull(input, "input is null");
        exprs = List.copyOf(exprs);
        requireNonNull(schema, "schema is null");
        requireNonNull(properties, "properties is null");
    }

    /** Not estimated (yet): the planner sets the estimate with {@link #withEstimatedRows}. */
    public ProjectionExec(ExecutionPlan input, List<Expr> exprs, Schema schema, PlanProperties properties) {
        this(input, exprs, schema, properties, UNKNOWN_ROWS);
    }

    @Override
    public ExecutionPlan withEstimatedRows(long rows) {
        return new ProjectionExec(input, exprs, schema, properties, rows);
    }

    public ProjectionExec(ExecutionPlan input, List<Expr> exprs) {
        this(input, exprs, schemaOf(input.schema(), exprs), propertiesOf(input.properties(), exprs));
    }

    private static Schema schemaOf(Schema input, List<Expr> exprs) {
        List<Field> fields = new ArrayList<>(exprs.size());
        for (Expr e : exprs) {
            fields.add(new Field(e.name(), e.type(input)));
        }
        return new Schema(fields);
    }

    /** Output name of an input column passed through unchanged, if it is. */
    private static Optional<Expr> passThrough(Expr key, List<Expr> exprs) {
        if (!(key instanceof Column column)) {
            return Optional.empty();
        }
        for (Expr e : exprs) {
            if (Exprs.unalias(e).equals(column)) {
                return Optional.of(new Column(e.name()));
            }
        }
        return Optional.empty();
    }

    /** A passed-through output column for {@code key} or for an expression known equal to it. */
    private static Optional<Expr> passThroughOrEquivalent(Expr key, List<Expr> exprs, PlanProperties in) {
        Optional<Expr> direct = passThrough(key, exprs);
        if (direct.isPresent()) {
            return direct;
        }
        for (List<Expr> group : in.equivalences()) {
            if (group.contains(key)) {
                for (Expr e : group) {
                    Optional<Expr> mapped = passThrough(e, exprs);
                    if (mapped.isPresent()) {
                        return mapped;
                    }
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Hash and range partitionings carry over when every key passes through (or an expression known
     * equal to it does), under the output names; otherwise they become unknown. A range partitioning
     * keeps its split points: renaming columns does not move rows.
     */
    private static PlanProperties propertiesOf(PlanProperties in, List<Expr> exprs) {
        Partitioning partitioning = in.partitioning().mapKeys(k -> passThroughOrEquivalent(k, exprs, in));
        List<SortKey> ordering = new ArrayList<>();
        for (SortKey k : in.ordering()) {
            Optional<Expr> mapped = passThrough(k.expr(), exprs);
            if (mapped.isEmpty()) {
                break;
            }
            ordering.add(new SortKey(mapped.get(), k.ascending(), k.nullsFirst()));
        }
        List<List<Expr>> equivalences = new ArrayList<>();
        for (List<Expr> group : in.equivalences()) {
            List<Expr> mapped = new ArrayList<>();
            for (Expr e : group) {
                passThrough(e, exprs).ifPresent(mapped::add);
            }
            equivalences.add(mapped);
        }
        List<Expr> constants = new ArrayList<>();
        for (Expr c : in.constants()) {
            passThrough(c, exprs).ifPresent(constants::add);
        }
        return new PlanProperties(partitioning, ordering, in.bounded(), equivalences, constants);
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(input);
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new ProjectionExec(children.get(0), exprs).withEstimatedRows(estimatedRows);
    }

    @Override
    public List<Boolean> maintainsInputOrder() {
        return List.of(true);
    }

    @Override
    public CardinalityEffect cardinalityEffect() {
        return CardinalityEffect.EQUAL;
    }

    @Override
    public List<Expr> projectionForPushdown() {
        return exprs;
    }

    /** The input column an output column passes through from, if it does. */
    private Optional<Expr> inputOf(String outputColumn) {
        for (Expr e : exprs) {
            if (e.name().equals(outputColumn) && Exprs.unalias(e) instanceof Column c) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /** Rewrites an expression over this projection's output into one over its input, if possible. */
    private Optional<Expr> toInput(Expr expr) {
        for (String column : Exprs.columns(expr)) {
            if (inputOf(column).isEmpty()) {
                return Optional.empty();
            }
        }
        return Optional.of(Exprs.transformUp(expr, e -> e instanceof Column c ? inputOf(c.column()).orElseThrow() : e));
    }

    /** Filters on passed-through columns go below the projection; the rest stay above. */
    @Override
    public FilterPushdown pushFilters(List<Expr> filters) {
        List<Expr> below = new ArrayList<>();
        List<Expr> remaining = new ArrayList<>();
        for (Expr f : filters) {
            Optional<Expr> rewritten = toInput(f);
            if (rewritten.isPresent()) {
                below.add(rewritten.get());
            } else {
                remaining.add(f);
            }
        }
        if (below.isEmpty()) {
            return FilterPushdown.none(this, filters);
        }
        return new FilterPushdown(new ProjectionExec(new FilterExec(input, Exprs.and(below)), exprs), remaining);
    }

    /** Keys on passed-through columns, rewritten to the input's columns. */
    @Override
    public Optional<List<Expr>> filterKeysOnInput(List<Expr> keys) {
        List<Expr> below = new ArrayList<>(keys.size());
        for (Expr key : keys) {
            Optional<Expr> rewritten = toInput(key);
            if (rewritten.isEmpty()) {
                return Optional.empty();
            }
            below.add(rewritten.get());
        }
        return Optional.of(below);
    }

    /** Predicates on passed-through columns are handed to the input, rewritten to its columns. */
    @Override
    public ExecutionPlan withRuntimePruning(List<Expr> predicates) {
        List<Expr> below = new ArrayList<>();
        predicates.forEach(p -> toInput(p).ifPresent(below::add));
        ExecutionPlan pruned = below.isEmpty() ? input : input.withRuntimePruning(below);
        return pruned == input ? this : withNewChildren(List.of(pruned));
    }

    /** A test on passed-through columns is handed to the input, rewritten to its columns. */
    @Override
    public ExecutionPlan withScanRowFilter(ScanRowFilter filter) {
        ExecutionPlan filtered = filter.rewritten(this::toInput).map(input::withScanRowFilter).orElse(input);
        return filtered == input ? this : withNewChildren(List.of(filtered));
    }

    /** A sort on passed-through columns is done below the projection, on the narrower input. */
    @Override
    public Optional<ExecutionPlan> tryPushdownSort(List<SortKey> sort, long fetch) {
        List<SortKey> below = new ArrayList<>();
        for (SortKey k : sort) {
            Optional<Expr> rewritten = toInput(k.expr());
            if (rewritten.isEmpty()) {
                return Optional.empty();
            }
            below.add(new SortKey(rewritten.get(), k.ascending(), k.nullsFirst()));
        }
        ExecutionPlan sorted = input.tryPushdownSort(below, fetch)
                .orElseGet(() -> new SortExec(input, below, fetch, true));
        ProjectionExec result = new ProjectionExec(sorted, exprs);
        // Only when the order shows through the projection (its keys pass through as columns).
        return result.properties().orderingSatisfies(sort) ? Optional.of(result) : Optional.empty();
    }

    @Override
    public String describe() {
        return "ProjectionExec: " + exprs.stream().map(Expr::toString).collect(Collectors.joining(", "));
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        BoundExprs bound = new BoundExprs(exprs, input.schema()); // before the input opens a stream
        BatchStream in = input.execute(partition, context);
        return new BatchStream() {
            @Override
            public Batch next() {
                try (Batch batch = in.next()) {
                    if (batch == null) {
                        return null;
                    }
                    return project(batch, bound, context);
                }
            }

            @Override
            public void close() {
                in.close();
            }
        };
    }

    /**
     * The projection of one batch. A column passed through that {@code batch} holds as an Arrow
     * vector (a scan's columns, a shuffle fetch), or a struct field of one ({@code s.f}), is shared into the output (its buffers retained,
     * not copied, no string decoded), together with its heap form when the batch has unpacked it;
     * every other expression is evaluated into a heap column.
     */
    private Batch project(Batch batch, BoundExprs bound, TaskContext context) {
        int n = batch.rowCount();
        Col[] out = new Col[bound.size()];
        FieldVector[] vectors = new FieldVector[out.length];
        try {
            for (int i = 0; i < out.length; i++) {
                int c = bound.inputColumn(i, batch);
                FieldVector vector = c < 0 ? bound.expr(i, batch).arrowVector(batch) : batch.arrowVector(c);
                if (vector != null) {
                    TransferPair share = vector.getTransferPair(schema.field(i).toArrow(), context.allocator());
                    share.splitAndTransfer(0, n);
                    vectors[i] = (FieldVector) share.getTo();
                    out[i] = c >= 0 && batch.hasColumn(c) ? batch.column(c) : null;
                } else {
                    out[i] = bound.evaluate(i, batch);
                }
            }
        } catch (RuntimeException | Error e) {
            for (FieldVector v : vectors) {
                if (v != null) {
                    v.close();
                }
            }
            throw e;
        }
        return Batch.of(schema, out, vectors, n, context.allocator());
    }
}
