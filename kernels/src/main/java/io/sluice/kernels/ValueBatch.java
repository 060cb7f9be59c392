package io.sluice.kernels;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * A small batch of Java values written straight into Arrow vectors: the status rows a command
 * answers with (a write task's file and row count, {@code SET}'s key and value, text lines). Not for
 * data that grows with the input.
 */
public final class ValueBatch {
    private ValueBatch() {
    }

    /**
     * A batch of {@code rows} rows, column {@code i} from {@code columns[i]}: a {@code String[]} for
     * a VARCHAR field (a null element is NULL), a {@code long[]} for a BIGINT one. The vectors come from
     * {@code allocator}; the caller closes the batch.
     */
    public static Batch of(Schema schema, BufferAllocator allocator, int rows, Object... columns) {
        requireNonNull(schema, "schema");
        requireNonNull(allocator, "allocator");
        if (columns.length != schema.size()) {
            throw new IllegalArgumentException(columns.length + " columns for schema " + schema);
        }
        FieldVector[] vectors = new FieldVector[columns.length];
        try {
            for (int i = 0; i < columns.length; i++) {
                vectors[i] = vector(schema.field(i).type(), schema.field(i).name(), columns[i], rows, allocator);
            }
        } catch (RuntimeException | Error e) {
            AutoCloseables.close(e, vectors);
            throw e;
        }
        return Batch.ofVectors(schema, vectors, rows);
    }

    private static FieldVector vector(DataType type, String name, Object values, int rows, BufferAllocator allocator) {
        if (type.kind() == DataType.Kind.UTF8 && values instanceof String[] strings && strings.length >= rows) {
            VarCharVector vector = new VarCharVector(type.toArrowField(name), allocator);
            try {
                vector.allocateNew(rows);
                for (int r = 0; r < rows; r++) {
                    if (strings[r] == null) {
                        vector.setNull(r);
                    } else {
                        vector.setSafe(r, strings[r].getBytes(StandardCharsets.UTF_8));
                    }
                }
                vector.setValueCount(rows);
            } catch (RuntimeException | Error e) {
                vector.close();
                throw e;
            }
            return vector;
        }
        if (type.kind() == DataType.Kind.INT64 && values instanceof long[] longs && longs.length >= rows) {
            BigIntVector vector = new BigIntVector(type.toArrowField(name), allocator);
            try {
                vector.allocateNew(rows);
                for (int r = 0; r < rows; r++) {
                    vector.set(r, longs[r]);
                }
                vector.setValueCount(rows);
            } catch (RuntimeException | Error e) {
                vector.close();
                throw e;
            }
            return vector;
        }
        throw new IllegalArgumentException("column '" + name + "' of type " + type.sqlName()
                + " cannot take " + (values == null ? "null" : values.getClass().getSimpleName()) + " of " + rows + " rows");
    }
}
