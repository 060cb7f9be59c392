package io.sluice.plan.operators;

import io.sluice.plan.exec.Batch;
import io.sluice.plan.exec.BatchStream;
import io.sluice.plan.exec.Col;
import io.sluice.plan.expr.SortKey;
import io.sluice.plan.physical.ExecutionPlan;
import io.sluice.plan.physical.Partitioning;
import io.sluice.plan.physical.PlanProperties;
import io.sluice.plan.physical.TaskContext;
import io.sluice.plan.types.Schema;
import java.util.Iterator;
import java.util.List;

/**
 * A test leaf: partition {@code p} yields the given heap columns as Arrow batches from the task's
 * allocator, under a declared partitioning and ordering. A {@link Partitioning.Broadcast} source
 * serves its one partition for every index, as a broadcast shuffle reader does.
 */
final class MemorySourceExec implements ExecutionPlan {
    private final Schema schema;
    private final List<List<Col[]>> partitions;
    private final PlanProperties properties;

    MemorySourceExec(Schema schema, List<List<Col[]>> partitions, Partitioning partitioning, List<SortKey> ordering) {
        if (partitioning.partitionCount() != partitions.size()) {
            throw new IllegalArgumentException(partitions.size() + " partitions declared as " + partitioning);
        }
        this.schema = schema;
        this.partitions = partitions;
        this.properties = PlanProperties.of(partitioning, ordering);
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
        return properties;
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        boolean broadcast = properties.partitioning() instanceof Partitioning.Broadcast;
        Iterator<Col[]> batches = partitions.get(broadcast ? 0 : partition).iterator();
        return new BatchStream() {
            @Override
            public Batch next() {
                if (!batches.hasNext()) {
                    return null;
                }
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
        return "MemorySourceExec";
    }
}
