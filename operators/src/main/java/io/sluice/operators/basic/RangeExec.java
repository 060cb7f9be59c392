package io.sluice.operators.basic;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.operators.CardinalityEffect;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import java.math.BigInteger;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Makes the values of a range ({@code RangeRelation}) where it runs: partition {@code i} of
 * {@code partitions} holds the values at positions {@code [i·n/partitions, (i+1)·n/partitions)},
 * as Spark splits {@code spark.range}, so the plan sent to a worker is five numbers whatever the
 * size. Values are written straight into Arrow BIGINT buffers, a batch at a time.
 */
public record RangeExec(long start, long step, long count, int partitions, Schema schema, long estimatedRows)
        implements ExecutionPlan {
    public RangeExec {
        if (step == 0 || count < 0 || partitions < 1) {
            throw new IllegalArgumentException("range step " + step + ", count " + count + ", partitions " + partitions);
        }
        requireNonNull(schema, "schema is null");
    }

    public RangeExec(long start, long step, long count, int partitions, Schema schema) {
        this(start, step, count, partitions, schema, UNKNOWN_ROWS);
    }

    @Override
    public ExecutionPlan withEstimatedRows(long rows) {
        return new RangeExec(start, step, count, partitions, schema, rows);
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of();
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return this;
    }

    @Override
    public PlanProperties properties() {
        return PlanProperties.of(new Partitioning.Unknown(partitions));
    }

    @Override
    public CardinalityEffect cardinalityEffect() {
        return CardinalityEffect.EQUAL;
    }

    /** The position of partition {@code partition}'s first value (computed wide: {@code partition · count} may pass a long). */
    long firstPosition(int partition) {
        return BigInteger.valueOf(count).multiply(BigInteger.valueOf(partition))
                .divide(BigInteger.valueOf(partitions)).longValueExact();
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        long from = firstPosition(partition);
        long to = firstPosition(partition + 1);
        // start + from·step wraps in long arithmetic to the true value, which lies between start and end
        return BatchStream.cancellable(new Values(start + from * step, step, to - from, context.allocator(),
                Math.max(1, context.batchSize())), context);
    }

    @Override
    public String describe() {
        return "RangeExec: start=" + start + " step=" + step + " count=" + count + " partitions=" + partitions;
    }

    /** The values of one partition, {@code batchSize} per batch. */
    private final class Values implements BatchStream {
        private final BufferAllocator allocator;
        private final int batchSize;
        private final long step;
        private long next;
        private long remaining;

        Values(long first, long step, long remaining, BufferAllocator allocator, int batchSize) {
            this.next = first;
            this.step = step;
            this.remaining = remaining;
            this.allocator = allocator;
            this.batchSize = batchSize;
        }

        @Override
        public Batch next() {
            if (remaining == 0) {
                return null;
            }
            int rows = (int) Math.min(remaining, batchSize);
            BigIntVector vector = (BigIntVector) schema.field(0).toArrow().createVector(allocator);
            try {
                vector.allocateNew(rows);
                ArrowBuf data = vector.getDataBuffer();
                long value = next;
                for (int i = 0; i < rows; i++) {
                    data.setLong((long) i * BigIntVector.TYPE_WIDTH, value);
                    value += step;
                }
                vector.getValidityBuffer().setOne(0, (rows + 7) / 8);
                vector.setValueCount(rows);
                next = value;
                remaining -= rows;
                return new Batch(schema, new VectorSchemaRoot(List.of((FieldVector) vector)));
            } catch (RuntimeException | Error e) {
                vector.close();
                throw e;
            }
        }

        @Override
        public void close() {
            remaining = 0;
        }
    }
}
