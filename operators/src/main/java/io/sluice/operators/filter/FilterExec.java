package io.sluice.operators.filter;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.TypeRules;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.Literal;
import io.sluice.operators.CardinalityEffect;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.FilterPushdown;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.RowSubsetExec;
import io.sluice.operators.TaskContext;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps rows whose predicate is true. Keeps its input's partitioning and order. The predicate is
 * bound to the input's columns once per {@link #execute}, as a selection its conjuncts narrow
 * ({@link ConjunctSelection}); the plan keeps, sends and prints the logical predicate.
 */
public record FilterExec(ExecutionPlan input, Expr predicate, PlanProperties properties, long estimatedRows) implements RowSubsetExec {
    public FilterExec {
        requireNonNull(properties, "properties is null");
        requireNonNull(input, "input is null");
        requireNonNull(predicate, "predicate is null");
        TypeRules.checkBoolean("filter predicate " + predicate, predicate.type(input.schema()));
    }

    /** Not estimated (yet): the planner sets the estimate with {@link #withEstimatedRows}. */
    public FilterExec(ExecutionPlan input, Expr predicate, PlanProperties properties) {
        this(input, predicate, properties, UNKNOWN_ROWS);
    }

    @Override
    public ExecutionPlan withEstimatedRows(long rows) {
        return new FilterExec(input, predicate, properties, rows);
    }

    /** Derives the properties once, here. */
    public FilterExec(ExecutionPlan input, Expr predicate) {
        this(input, predicate, propertiesOf(input, predicate));
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new FilterExec(children.get(0), predicate).withEstimatedRows(estimatedRows);
    }

    /**
     * The input's properties, plus {@code a = b} conjuncts between columns as equivalences and
     * {@code a = literal} conjuncts as constants.
     */
    private static PlanProperties propertiesOf(ExecutionPlan input, Expr predicate) {
        List<List<Expr>> equal = new ArrayList<>();
        List<Expr> constant = new ArrayList<>();
        for (Expr c : Exprs.conjuncts(predicate)) {
            if (c instanceof Binary b && b.op() == BinaryOp.EQ) {
                if (b.left() instanceof Column && b.right() instanceof Column) {
                    equal.add(List.of(b.left(), b.right()));
                } else if (b.left() instanceof Column && b.right() instanceof Literal l && l.value() != null) {
                    constant.add(b.left());
                } else if (b.right() instanceof Column && b.left() instanceof Literal l && l.value() != null) {
                    constant.add(b.right());
                }
            }
        }
        PlanProperties out = input.properties();
        if (!equal.isEmpty()) {
            out = out.withEquivalences(equal);
        }
        return constant.isEmpty() ? out : out.withConstants(constant);
    }

    @Override
    public CardinalityEffect cardinalityEffect() {
        return CardinalityEffect.LOWER_EQUAL;
    }

    @Override
    public List<Expr> gatherFiltersForPushdown() {
        return Exprs.conjuncts(predicate);
    }

    @Override
    public ExecutionPlan handleChildPushdownResult(ExecutionPlan newChild, List<Expr> remaining) {
        return remaining.isEmpty() ? newChild : new FilterExec(newChild, Exprs.and(remaining));
    }

    /** A filter takes its parent's filters fully, by AND-ing them into its own predicate. */
    @Override
    public FilterPushdown pushFilters(List<Expr> filters) {
        List<Expr> all = new ArrayList<>(Exprs.conjuncts(predicate));
        for (Expr f : filters) {
            if (!all.contains(f)) {
                all.add(f);
            }
        }
        return new FilterPushdown(new FilterExec(input, Exprs.and(all)), List.of());
    }

    @Override
    public String describe() {
        return "FilterExec: " + predicate;
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        // before the input opens a stream
        ConjunctSelection selection = new ConjunctSelection(predicate, input.schema(), context.allocator());
        BatchStream in = input.execute(partition, context);
        return new BatchStream() {
            @Override
            public Batch next() {
                Batch batch;
                while ((batch = in.next()) != null) {
                    Batch out = filter(batch, selection, context);
                    if (out != null) {
                        return out;
                    }
                }
                return null;
            }

            @Override
            public void close() {
                in.close();
            }
        };
    }

    /** The selected rows of {@code batch} (which it closes unless passed through), or null if none. */
    private static Batch filter(Batch batch, ConjunctSelection selection, TaskContext context) {
        try {
            int n = batch.rowCount();
            int count = selection.select(batch);
            if (count == n) {
                Batch pass = batch;
                batch = null;
                return pass;
            }
            if (count == 0) {
                return null;
            }
            // Each column compacted once in the form it is held: Arrow vectors (a scan's columns, a
            // shuffle fetch) through the Arrow gather, so nothing is unpacked just to be copied.
            return batch.gather(selection.selection(), count, context.allocator());
        } finally {
            if (batch != null) {
                batch.close();
            }
        }
    }
}
