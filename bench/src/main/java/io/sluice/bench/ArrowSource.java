package io.sluice.bench;

import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.TransferPair;

/**
 * Hands out the prepared batches (columns {@code columns} of them) as new Arrow batches that
 * share the prepared buffers (reference counted): the consumer owns and closes each batch, as
 * with a scan, and no copy is timed. {@link VersusDuckDbBenchmark}'s input.
 */
record ArrowSource(List<VectorSchemaRoot> batches, Schema full, int[] columns) implements ExecutionPlan {
    @Override
    public Schema schema() {
        List<Field> fields = new ArrayList<>();
        for (int c : columns) {
            fields.add(full.field(c));
        }
        return new Schema(fields);
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
        return PlanProperties.of(new Partitioning.Single());
    }

    @Override
    public String describe() {
        return "ArrowSource " + Arrays.toString(columns);
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        Schema schema = schema();
        return new BatchStream() {
            private int next;

            @Override
            public Batch next() {
                if (next >= batches.size()) {
                    return null;
                }
                VectorSchemaRoot source = batches.get(next++);
                List<FieldVector> vectors = new ArrayList<>(columns.length);
                for (int c : columns) {
                    FieldVector vector = source.getVector(c);
                    TransferPair pair = vector.getTransferPair(vector.getAllocator());
                    pair.splitAndTransfer(0, vector.getValueCount());
                    vectors.add((FieldVector) pair.getTo());
                }
                return new Batch(schema, new VectorSchemaRoot(schema.toArrow().getFields(), vectors,
                        source.getRowCount()));
            }

            @Override
            public void close() {
            }
        };
    }
}
