package io.sluice.plan.operators;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.exec.Batch;
import io.sluice.plan.exec.BatchStream;
import io.sluice.plan.exec.Col;
import io.sluice.plan.expr.Column;
import io.sluice.plan.expr.Expr;
import io.sluice.plan.expr.Exprs;
import io.sluice.plan.expr.SortKey;
import io.sluice.plan.physical.CardinalityEffect;
import io.sluice.plan.physical.ExecutionPlan;
import io.sluice.plan.physical.Partitioning;
import io.sluice.plan.physical.PlanProperties;
import io.sluice.plan.physical.TaskContext;
import io.sluice.plan.types.Field;
import io.sluice.plan.types.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Computes one column per expression. Partitioning and ordering on columns that pass through
 * (possibly renamed) carry over under their new names.
 */
public record ProjectionExec(ExecutionPlan input, List<Expr> exprs, Schema schema, PlanProperties properties)
        implements ExecutionPlan {
    public ProjectionExec {
        requireNonNull(input, "input is null");
        exprs = List.copyOf(exprs);
        requireNonNull(schema, "schema is null");
        requireNonNull(properties, "properties is null");
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

    private static PlanProperties propertiesOf(PlanProperties in, List<Expr> exprs) {
        Partitioning partitioning = in.partitioning();
        if (partitioning instanceof Partitioning.Hash hash) {
            List<Expr> keys = new ArrayList<>();
            for (Expr k : hash.keys()) {
                Optional<Expr> mapped = passThrough(k, exprs);
                if (mapped.isEmpty()) {
                    keys = null;
                    break;
                }
                keys.add(mapped.get());
            }
            partitioning = keys == null ? new Partitioning.Unknown(hash.partitionCount())
                    : new Partitioning.Hash(keys, hash.partitionCount());
        }
        List<SortKey> ordering = new ArrayList<>();
        for (SortKey k : in.ordering()) {
            Optional<Expr> mapped = passThrough(k.expr(), exprs);
            if (mapped.isEmpty()) {
                break;
            }
            ordering.add(new SortKey(mapped.get(), k.ascending(), k.nullsFirst()));
        }
        return new PlanProperties(partitioning, ordering, in.bounded());
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(input);
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new ProjectionExec(children.get(0), exprs);
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
    public String describe() {
        return "ProjectionExec: " + exprs.stream().map(Expr::toString).collect(Collectors.joining(", "));
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        BatchStream in = input.execute(partition, context);
        return new BatchStream() {
            @Override
            public Batch next() {
                try (Batch batch = in.next()) {
                    if (batch == null) {
                        return null;
                    }
                    Col[] out = new Col[exprs.size()];
                    for (int i = 0; i < out.length; i++) {
                        out[i] = exprs.get(i).evaluate(batch);
                    }
                    return Batch.of(schema, out, batch.rowCount(), context.allocator());
                }
            }

            @Override
            public void close() {
                in.close();
            }
        };
    }
}
