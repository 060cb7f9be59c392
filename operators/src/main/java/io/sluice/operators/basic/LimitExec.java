package io.sluice.operators.basic;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.operators.CardinalityEffect;
import io.sluice.operators.Distribution;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Skips {@code offset} rows and passes at most {@code limit}. A global limit requires one input
 * partition; a local one applies per partition (as a cheap cut below an exchange) and never skips.
 */
public record LimitExec(ExecutionPlan input, long offset, long limit, boolean global, long estimatedRows) implements ExecutionPlan {
    public LimitExec {
        requireNonNull(input, "input is null");
        if (offset < 0 || limit < 0) {
            throw new IllegalArgumentException("offset and limit must not be negative");
        }
        if (!global && offset != 0) {
            throw new IllegalArgumentException("a local limit cannot skip rows");
        }
    }

    /** Not estimated (yet): the planner sets the estimate with {@link #withEstimatedRows}. */
    public LimitExec(ExecutionPlan input, long offset, long limit, boolean global) {
        this(input, offset, limit, global, UNKNOWN_ROWS);
    }

    @Override
    public ExecutionPlan withEstimatedRows(long rows) {
        return new LimitExec(input, offset, limit, global, rows);
    }

    @Override
    public Schema schema() {
        return input.schema();
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(input);
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new LimitExec(children.get(0), offset, limit, global).withEstimatedRows(estimatedRows);
    }

    @Override
    public PlanProperties properties() {
        return input.properties();
    }

    @Override
    public List<Distribution> requiredInputDistribution() {
        return List.of(global ? Distribution.SINGLE : Distribution.UNSPECIFIED);
    }

    @Override
    public List<Boolean> maintainsInputOrder() {
        return List.of(true);
    }

    @Override
    public OptionalLong fetch() {
        return OptionalLong.of(limit);
    }

    @Override
    public long skip() {
        return offset;
    }

    /** Redundant when its single input partition already holds at most the rows it would keep. */
    @Override
    public Optional<ExecutionPlan> removeIfRedundant() {
        OptionalLong inputFetch = input.fetch();
        boolean onePartition = input.properties().partitioning().partitionCount() == 1;
        if (offset == 0 && (onePartition || !global) && inputFetch.isPresent() && inputFetch.getAsLong() <= limit
                && input.skip() == 0) {
            return Optional.of(input);
        }
        return Optional.empty();
    }

    @Override
    public CardinalityEffect cardinalityEffect() {
        return CardinalityEffect.LOWER_EQUAL;
    }

    @Override
    public String describe() {
        return (global ? "GlobalLimitExec: " : "LocalLimitExec: ") + "fetch=" + limit + (offset > 0 ? ", skip=" + offset : "");
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        if (limit == 0) {
            return BatchStream.empty();
        }
        BatchStream in = input.execute(partition, context);
        return new BatchStream() {
            private long toSkip = offset;
            private long remaining = limit;

            @Override
            public Batch next() {
                while (remaining > 0) {
                    Batch batch = in.next();
                    if (batch == null) {
                        return null;
                    }
                    int rows = batch.rowCount();
                    int from = (int) Math.min(rows, toSkip);
                    toSkip -= from;
                    int count = (int) Math.min(rows - from, remaining);
                    if (count == 0) {
                        batch.close();
                        continue;
                    }
                    remaining -= count;
                    if (from == 0 && count == rows) {
                        return batch;
                    }
                    try (Batch b = batch) {
                        Col[] out = new Col[b.schema().size()];
                        for (int i = 0; i < out.length; i++) {
                            out[i] = b.column(i).slice(from, count);
                        }
                        return Batch.of(b.schema(), out, count, context.allocator());
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
