package io.sluice.operators.filter;

import static java.util.Objects.requireNonNull;

import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.logical.expr.Expr;
import io.sluice.operators.CardinalityEffect;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.RowSubsetExec;
import io.sluice.operators.TaskContext;
import io.sluice.operators.expr.BoundExprs;
import java.util.List;
import java.util.Optional;

/**
 * A runtime filter on a join's probe side: passes the rows of {@code input} whose {@code keys} may
 * occur among the build side's keys, as summarized by {@link RuntimeFilter} {@code filterId}.
 * Placed below the probe side's exchange, it drops rows that cannot join before they are written,
 * fetched and probed.
 *
 * <p>The filter is not known when the plan is made: the build side's
 * {@link RuntimeFilterSourceExec} with the same id computes it while its stage runs, each task
 * publishing a partial filter; the scheduler merges the partials and binds the result here
 * ({@link #bind}) before this operator's stage starts, which therefore runs after the build stage.
 * Unbound (no scheduler, or the scheduler found the filter unusable), it passes every row.
 *
 * <p>Output: {@code input}'s rows, schema, partitioning and order; rows only ever removed.
 *
 * @param filter the bound filter, or null while unbound
 */
public record RuntimeFilterExec(ExecutionPlan input, String filterId, List<Expr> keys, RuntimeFilter filter,
        long estimatedRows) implements RowSubsetExec {
    public RuntimeFilterExec {
        requireNonNull(input, "input is null");
        requireNonNull(filterId, "filterId is null");
        keys = RuntimeFilter.checkedKeys(keys, input.schema());
    }

    /** Not estimated (yet): the planner sets the estimate with {@link #withEstimatedRows}. */
    public RuntimeFilterExec(ExecutionPlan input, String filterId, List<Expr> keys, RuntimeFilter filter) {
        this(input, filterId, keys, filter, UNKNOWN_ROWS);
    }

    /** An unbound filter on {@code input}'s {@code keys}, to be bound to filter {@code filterId}. */
    public RuntimeFilterExec(ExecutionPlan input, String filterId, List<Expr> keys) {
        this(input, filterId, keys, null);
    }

    @Override
    public ExecutionPlan withEstimatedRows(long rows) {
        return new RuntimeFilterExec(input, filterId, keys, filter, rows);
    }

    /**
     * The same operator applying {@code bound}; its input is told the filter's key range
     * ({@link ExecutionPlan#withRuntimePruning}), so a Parquet scan below skips row groups outside it,
     * and the filter itself ({@link ExecutionPlan#withScanRowFilter}), so the scan decodes the other
     * columns only of rows whose keys pass.
     */
    public RuntimeFilterExec bind(RuntimeFilter bound) {
        requireNonNull(bound, "bound is null");
        List<Expr> range = bound.rangePredicates(keys, input.schema());
        ExecutionPlan pruned = range.isEmpty() ? input : input.withRuntimePruning(range);
        return new RuntimeFilterExec(pruned.withScanRowFilter(new RuntimeRowFilter(keys, bound)), filterId, keys, bound,
                estimatedRows);
    }

    public boolean bound() {
        return filter != null;
    }

    @Override
    public Optional<String> runtimeFilterOn(List<Expr> keys) {
        return keys.equals(this.keys) ? Optional.of(filterId) : Optional.empty();
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new RuntimeFilterExec(children.get(0), filterId, keys, filter, estimatedRows);
    }

    @Override
    public CardinalityEffect cardinalityEffect() {
        return CardinalityEffect.LOWER_EQUAL;
    }

    @Override
    public String describe() {
        return "RuntimeFilterExec: " + RuntimeFilter.describe(keys, filterId) + (filter == null ? "" : " " + filter);
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        BatchStream in = input.execute(partition, context);
        if (filter == null) {
            return in;
        }
        BoundExprs probeKeys = new BoundExprs(keys, input.schema());
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
                        int count = filter.select(probeKeys, batch, selected);
                        if (count == rows) {
                            Batch pass = batch;
                            batch = null;
                            return pass;
                        }
                        if (count > 0) {
                            return batch.gather(selected, count, context.allocator()); // each column in its form
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
