package io.sluice.datasource.file;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.util.TransferPair;

/**
 * The batches of one file's format reader with the file's partition values added: output column
 * {@code i} is either reader column {@code fileColumn[i]} (shared, not copied) or, where that is
 * -1, the constant {@code values[i]} written into a fresh Arrow vector per batch in one tight loop
 * (NULL as a vector with no valid row). So every format gets partition columns from this one place.
 */
public final class PartitionValuesStream implements BatchStream {
    private final BatchStream files;
    private final Schema schema;
    private final int[] fileColumn;
    private final Object[] values;
    private final BufferAllocator allocator;

    public PartitionValuesStream(BatchStream files, Schema schema, int[] fileColumn, Object[] values,
            BufferAllocator allocator) {
        this.files = requireNonNull(files, "files is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.fileColumn = fileColumn.clone();
        this.values = values.clone();
        this.allocator = requireNonNull(allocator, "allocator is null");
        if (fileColumn.length != schema.size() || values.length != schema.size()) {
            throw new IllegalArgumentException("one file column or value per output column");
        }
    }

    @Override
    public Batch next() {
        try (Batch batch = files.next()) {
            if (batch == null) {
                return null;
            }
            int n = batch.rowCount();
            FieldVector[] vectors = new FieldVector[schema.size()];
            try {
                for (int i = 0; i < vectors.length; i++) {
                    int c = fileColumn[i];
                    if (c < 0) {
                        vectors[i] = constant(schema.field(i).name(), schema.field(i).type(), values[i], n);
                    } else {
                        TransferPair share = batch.root().getVector(c).getTransferPair(schema.field(i).toArrow(), allocator);
                        share.splitAndTransfer(0, n);
                        vectors[i] = (FieldVector) share.getTo();
                    }
                }
                return Batch.ofVectors(schema, vectors, n);
            } catch (RuntimeException | Error e) {
                AutoCloseables.close(e, vectors);
                throw e;
            }
        }
    }

    private FieldVector constant(String name, DataType type, Object value, int rows) {
        FieldVector vector = (FieldVector) new io.sluice.common.types.Field(name, type).toArrow().createVector(allocator);
        try {
            if (value instanceof String s && vector instanceof VarCharVector strings) {
                byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
                strings.allocateNew(Math.max(1L, (long) bytes.length * rows), rows);
                fill(strings, bytes, rows);
            } else {
                vector.setInitialCapacity(rows);
                vector.allocateNew();
            }
            if (value != null && !(value instanceof String)) {
                switch (type.kind()) {
                    case INT32 -> fill((IntVector) vector, (int) (long) (Long) value, rows);
                    case INT64 -> fill((BigIntVector) vector, (Long) value, rows);
                    case DATE32 -> fill((DateDayVector) vector, (int) (long) (Long) value, rows);
                    default -> throw new IllegalStateException("partition column " + name + " of type " + type);
                }
            }
            vector.setValueCount(rows);
            return vector;
        } catch (RuntimeException | Error e) {
            vector.close();
            throw e;
        }
    }

    private static void fill(IntVector v, int value, int rows) {
        for (int i = 0; i < rows; i++) {
            v.set(i, value);
        }
    }

    private static void fill(BigIntVector v, long value, int rows) {
        for (int i = 0; i < rows; i++) {
            v.set(i, value);
        }
    }

    private static void fill(DateDayVector v, int value, int rows) {
        for (int i = 0; i < rows; i++) {
            v.set(i, value);
        }
    }

    private static void fill(VarCharVector v, byte[] value, int rows) {
        for (int i = 0; i < rows; i++) {
            v.set(i, value);
        }
    }

    @Override
    public void close() {
        files.close();
    }
}
