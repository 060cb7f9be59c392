package io.sluice.operators.filter;

import static java.util.Objects.requireNonNull;

import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.logical.expr.Expr;
import io.sluice.operators.CardinalityEffect;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.RowSubsetExec;
import io.sluice.operators.ScanRowFilter;
import io.sluice.operators.TaskContext;
import io.sluice.operators.memory.MemoryReservation;
import java.util.List;
import java.util.Optional;

/**
 * The build side of a runtime filter: passes {@code input} through unchanged and, as the rows go
 * by, adds their {@code keys} to a {@link RuntimeFilter} of {@code bitCount} bits (fixed at planning
 * time, so that every task's partial filter merges with the others). When its input ends, the task
 * publishes the partial filter under {@code filterId} ({@link TaskContext#publish}); the scheduler
 * merges all partials of the stage and binds the result into the probe side's
 * {@link RuntimeFilterExec}.
 *
 * <p>Only a stream read to its end publishes: a task stopped early leaves the filter incomplete,
 * and the scheduler then drops it rather than bind a filter that could reject matching rows.
 */
public record RuntimeFilterSourceExec(ExecutionPlan input, String filterId, List<Expr> keys, long bitCount,
        long estimatedRows) implements RowSubsetExec {
    public RuntimeFilterSourceExec {
        requireNonNull(input, "input is null");
        requireNonNull(filterId, "filterId is null");
        keys = RuntimeFilter.checkedKeys(keys, input.schema());
        new RuntimeFilter.Builder(keys, bitCount); // checks the bit count
    }

    /** Not estimated (yet): the planner sets the estimate with {@link #withEstimatedRows}. */
    public RuntimeFilterSourceExec(ExecutionPlan input, String filterId, List<Expr> keys, long bitCount) {
        this(input, filterId, keys, bitCount, UNKNOWN_ROWS);
    }

    @Override
    public ExecutionPlan withEstimatedRows(long rows) {
        return new RuntimeFilterSourceExec(input, filterId, keys, bitCount, rows);
    }

    /**
     * Not handed on: this operator sees every row of a join's build side to build its filter, so no
     * row test may drop rows below it.
     */
    @Override
    public ExecutionPlan withScanRowFilter(ScanRowFilter filter) {
        return this;
    }

    /**
     * No filter goes below the source: it would narrow the keys the source publishes, which another
     * use of the same filter (a shared subplan) takes for all of its input's.
     */
    @Override
    public Optional<List<Expr>> filterKeysOnInput(List<Expr> keys) {
        return Optional.empty();
    }

    /**
     * Every input row comes out unchanged, so a filter its input's rows passed holds for its output
     * rows too: the planner finds filters through here ({@link ExecutionPlan#runtimeFilterOn}) but
     * never puts one below ({@link #filterKeysOnInput}).
     */
    @Override
    public List<Optional<List<Expr>>> outputKeysOnInputs(List<Expr> keys) {
        return List.of(Optional.of(keys));
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new RuntimeFilterSourceExec(children.get(0), filterId, keys, bitCount, estimatedRows);
    }

    @Override
    public CardinalityEffect cardinalityEffect() {
        return CardinalityEffect.EQUAL;
    }

    @Override
    public String describe() {
        return "RuntimeFilterSourceExec: " + RuntimeFilter.describe(keys, filterId) + " bits=" + bitCount;
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        RuntimeFilter.Builder builder = new RuntimeFilter.Builder(keys, bitCount);
        MemoryReservation memory = context.reserve(describe());
        BatchStream in;
        try {
            memory.grow(builder.heapBytes());
            in = input.execute(partition, context);
        } catch (RuntimeException e) {
            memory.close();
            throw e;
        }
        return new BatchStream() {
            @Override
            public Batch next() {
                Batch batch = in.next();
                if (batch == null) {
                    context.publish(filterId, builder.build());
                    return null;
                }
                try {
                    builder.add(batch);
                } catch (RuntimeException e) {
                    batch.close();
                    throw e;
                }
                return batch;
            }

            @Override
            public void close() {
                try {
                    in.close();
                } finally {
                    memory.close();
                }
            }
        };
    }
}
