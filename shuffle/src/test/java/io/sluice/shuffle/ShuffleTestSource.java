package io.sluice.shuffle;

import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A test source: partition {@code p} yields the given heap columns as Arrow batches allocated from
 * the task's allocator. {@code failAfter >= 0} throws after that many batches of each partition.
 */
final class ShuffleTestSource implements ExecutionPlan {
    private final Schema schema;
    private final List<List<Col[]>> partitions;
    private final int failAfter;

    ShuffleTestSource(Schema schema, List<List<Col[]>> partitions) {
        this(schema, partitions, -1);
    }

    ShuffleTestSource(Schema schema, List<List<Col[]>> partitions, int failAfter) {
        this.schema = schema;
        this.partitions = partitions;
        this.failAfter = failAfter;
    }

    @Override
    public Schema schema() {
        return schema;
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
        return PlanProperties.of(new Partitioning.Unknown(partitions.size()));
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        Iterator<Col[]> batches = new ArrayList<>(partitions.get(partition)).iterator();
        return new BatchStream() {
            private int produced;

            @Override
            public Batch next() {
                if (failAfter >= 0 && produced == failAfter) {
                    throw new IllegalStateException("source failed on purpose");
                }
                if (!batches.hasNext()) {
                    return null;
                }
                produced++;
                Col[] cols = batches.next();
                return Batch.of(schema, cols, cols[0].length, context.allocator());
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public String describe() {
        return "ShuffleTestSource";
    }
}
