package io.sluice.plan.operators;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.exec.Batch;
import io.sluice.plan.exec.BatchStream;
import io.sluice.plan.expr.Expr;
import io.sluice.plan.physical.CardinalityEffect;
import io.sluice.plan.physical.Distribution;
import io.sluice.plan.physical.ExecutionPlan;
import io.sluice.plan.physical.PlanProperties;
import io.sluice.plan.physical.TaskContext;
import io.sluice.plan.types.Schema;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A runtime filter on a join's probe side: passes the rows of {@code input} whose {@code keys} may
 * occur among {@code sourceKeys} of {@code source}, the join's build side (a {@link RuntimeFilter}:
 * Bloom filter plus min/max). Placed below the probe side's exchange, it drops rows that cannot
 * join before they are written, fetched and probed.
 *
 * <p>{@code source} must be broadcast (every partition reads all of it): the operator says so
 * through {@link #requiredInputDistribution()}, so the build side runs as its own stage before the
 * probe stage and each probe task reads it once to build its filter. The planner adds this
 * operator only when the build side is small and expected to reject a good share of probe rows;
 * the cost is that second, broadcast read of the build side.
 *
 * <p>Output: {@code input}'s rows, schema, partitioning and order; rows only ever removed.
 */
public record RuntimeFilterExec(ExecutionPlan input, ExecutionPlan source, List<Expr> keys, List<Expr> sourceKeys, long estimatedRows)
        implements ExecutionPlan {
    public RuntimeFilterExec {
        requireNonNull(input, "input is null");
        requireNonNull(source, "source is null");
        keys = List.copyOf(keys);
        sourceKeys = List.copyOf(sourceKeys);
        if (keys.isEmpty() || keys.size() != sourceKeys.size()) {
            throw new IllegalArgumentException("a runtime filter needs as many keys as source keys, at least one");
        }
        JoinSupport.checkKeys("RuntimeFilterExec", keys, input.schema(), sourceKeys, source.schema());
    }

    /** Not estimated (yet): the planner sets the estimate with {@link #withEstimatedRows}. */
    public RuntimeFilterExec(ExecutionPlan input, ExecutionPlan source, List<Expr> keys, List<Expr> sourceKeys) {
        this(input, source, keys, sourceKeys, UNKNOWN_ROWS);
    }

    @Override
    public ExecutionPlan withEstimatedRows(long rows) {
        return new RuntimeFilterExec(input, source, keys, sourceKeys, rows);
    }

    @Override
    public Schema schema() {
        return input.schema();
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(input, source);
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new RuntimeFilterExec(children.get(0), children.get(1), keys, sourceKeys).withEstimatedRows(estimatedRows);
    }

    @Override
    public PlanProperties properties() {
        return input.properties();
    }

    @Override
    public List<Distribution> requiredInputDistribution() {
        return List.of(Distribution.UNSPECIFIED, Distribution.BROADCAST);
    }

    @Override
    public List<Boolean> maintainsInputOrder() {
        return List.of(true, false);
    }

    @Override
    public CardinalityEffect cardinalityEffect() {
        return CardinalityEffect.LOWER_EQUAL;
    }

    @Override
    public String describe() {
        return "RuntimeFilterExec: keys=[" + keys.stream().map(Expr::toString).collect(Collectors.joining(", "))
                + "] in source [" + sourceKeys.stream().map(Expr::toString).collect(Collectors.joining(", ")) + "]";
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        RuntimeFilter filter = RuntimeFilter.build(source.execute(partition, context), sourceKeys, context);
        BatchStream in = input.execute(partition, context);
        return new BatchStream() {
            private int[] selected = new int[0];

            @Override
            public Batch next() {
                Batch batch;
                while ((batch = in.next()) != null) {
                    try {
                        int rows = batch.rowCount();
                        if (selected.length < rows) {
                            selected = new int[rows];
                        }
                        int count = filter.select(keys, batch, selected);
                        if (count == rows) {
                            Batch pass = batch;
                            batch = null;
                            return pass;
                        }
                        if (count > 0) {
                            return Batch.of(batch.schema(), JoinSupport.gather(batch.columns(), selected, count), count,
                                    context.allocator());
                        }
                    } finally {
                        if (batch != null) {
                            batch.close();
                        }
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
}
