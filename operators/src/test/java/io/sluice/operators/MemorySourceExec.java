package io.sluice.operators;

import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.SortKey;
import java.util.Iterator;
import java.util.List;

/**
 * A test leaf: partition {@code p} yields the given heap columns as batches from the task's
 * allocator, under a declared partitioning and ordering: heap batches, or with {@link
 * #withArrowBatches} batches in turn in Arrow form (as a shuffle fetch hands them out), on the heap,
 * and mixed (strings as vectors, as a Parquet scan hands them out), so operators meet every form,
 * or with {@link #withArrowValuesUnderNulls} every batch in Arrow form with the heap column's value
 * left under each NULL slot of a fixed-width column (not the zero a writer leaves), so that a
 * kernel reading a value under a NULL is seen. A {@link Partitioning.Broadcast} source serves its one partition for
 * every index, as a broadcast shuffle reader does.
 */
public final class MemorySourceExec implements ExecutionPlan {
    private final Schema schema;
    private final List<List<Col[]>> partitions;
    private final PlanProperties properties;
    private final boolean arrow;
    private final boolean allArrowWithValuesUnderNulls;

    public MemorySourceExec(Schema schema, List<List<Col[]>> partitions, Partitioning partitioning, List<SortKey> ordering) {
        this(schema, partitions, PlanProperties.of(partitioning, ordering), false, false);
    }

    private MemorySourceExec(Schema schema, List<List<Col[]>> partitions, PlanProperties properties, boolean arrow,
            boolean allArrowWithValuesUnderNulls) {
        Partitioning partitioning = properties.partitioning();
        if (partitioning.partitionCount() != partitions.size()) {
            throw new IllegalArgumentException(partitions.size() + " partitions declared as " + partitioning);
        }
        this.schema = schema;
        this.partitions = partitions;
        this.properties = properties;
        this.arrow = arrow;
        this.allArrowWithValuesUnderNulls = allArrowWithValuesUnderNulls;
    }

    /**
     * The same source handing out the batches of each partition in turn in Arrow form, as heap
     * columns, and mixed as a Parquet scan hands them out (string columns as Arrow vectors, the
     * rest on the heap).
     */
    public MemorySourceExec withArrowBatches() {
        return new MemorySourceExec(schema, partitions, properties, true, false);
    }

    /** The same source handing out every batch in Arrow form, values left under the NULL slots of fixed-width columns. */
    public MemorySourceExec withArrowValuesUnderNulls() {
        return new MemorySourceExec(schema, partitions, properties, true, true);
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
            private int handedOut;

            @Override
            public Batch next() {
                if (!batches.hasNext()) {
                    return null;
                }
                Col[] cols = batches.next();
                int form = !arrow ? 1 : allArrowWithValuesUnderNulls ? 0 : handedOut++ % 3;
                if (form == 1) {
                    return Batch.of(schema, cols, cols[0].length, context.allocator());
                }
                if (form == 2) { // as a Parquet scan: strings as vectors, the rest on the heap
                    Col[] heap = new Col[cols.length];
                    org.apache.arrow.vector.FieldVector[] strings = new org.apache.arrow.vector.FieldVector[cols.length];
                    for (int c = 0; c < cols.length; c++) {
                        if (schema.field(c).type().kind() == io.sluice.common.types.DataType.Kind.UTF8) {
                            strings[c] = cols[c].write(schema.field(c).name(), context.allocator());
                        } else {
                            heap[c] = cols[c];
                        }
                    }
                    return Batch.of(schema, heap, strings, cols[0].length, context.allocator());
                }
                java.util.List<org.apache.arrow.vector.FieldVector> vectors = new java.util.ArrayList<>();
                for (int c = 0; c < cols.length; c++) {
                    vectors.add(allArrowWithValuesUnderNulls ? writeWithValuesUnderNulls(cols[c], schema.field(c).name(),
                            context.allocator()) : cols[c].write(schema.field(c).name(), context.allocator()));
                }
                return new Batch(schema, new org.apache.arrow.vector.VectorSchemaRoot(schema.toArrow().getFields(),
                        vectors, cols[0].length));
            }

            @Override
            public void close() {
            }
        };
    }

    /** A long- or double-backed column written with every value, then its NULL rows' validity bits cleared. */
    private static org.apache.arrow.vector.FieldVector writeWithValuesUnderNulls(Col col, String name,
            org.apache.arrow.memory.BufferAllocator allocator) {
        if (col.nulls == null || (col.longs == null && col.doubles == null) || col.isWide()) {
            return col.write(name, allocator);
        }
        Col valued = col.doubles != null ? Col.ofDoubles(col.doubles, null) : Col.ofLongs(col.type, col.longs, null);
        org.apache.arrow.vector.FieldVector v = valued.write(name, allocator);
        for (int i = 0; i < col.length; i++) {
            if (col.nulls[i]) {
                org.apache.arrow.vector.BitVectorHelper.unsetBit(v.getValidityBuffer(), i);
            }
        }
        return v;
    }

    @Override
    public String describe() {
        return "MemorySourceExec";
    }
}
