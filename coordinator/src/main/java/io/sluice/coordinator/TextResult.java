package io.sluice.coordinator;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.ArrowIpc;
import io.sluice.kernels.Batch;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * The result of a statement that answers in words or one number: a status or a plan (one text
 * column, one row per line), a setting, a count of rows written. Encoded from Arrow vectors written
 * here, as every result is.
 */
final class TextResult {
    private TextResult() {
    }

    /** {@code text} as an Arrow IPC stream of one column named {@code column}, one row per line. */
    static byte[] encode(String column, String text, BufferAllocator allocator) {
        String[] lines = text.split("\n");
        return encode(Schema.of(new Field(column, DataType.UTF8)), allocator, lines.length, lines);
    }

    /** One row of two text columns {@code key} and {@code value}: what Spark's {@code SET} answers. */
    static byte[] keyValue(String key, String value, BufferAllocator allocator) {
        Schema schema = Schema.of(new Field("key", DataType.UTF8), new Field("value", DataType.UTF8));
        return encode(schema, allocator, 1, new String[] {key}, new String[] {value});
    }

    /** One row of one BIGINT column {@code column}: a count (the rows a write wrote). */
    static byte[] count(String column, long value, BufferAllocator allocator) {
        Schema schema = Schema.of(new Field(column, DataType.INT64));
        BigIntVector vector = new BigIntVector(schema.field(0).type().toArrowField(column), allocator);
        try {
            vector.allocateNew(1);
            vector.set(0, value);
            vector.setValueCount(1);
        } catch (RuntimeException | Error e) {
            vector.close();
            throw e;
        }
        return encode(schema, new FieldVector[] {vector}, 1, allocator);
    }

    /** Text columns of {@code rows} rows, none NULL, column {@code i} from {@code columns[i]}. */
    private static byte[] encode(Schema schema, BufferAllocator allocator, int rows, String[]... columns) {
        FieldVector[] vectors = new FieldVector[columns.length];
        try {
            for (int i = 0; i < columns.length; i++) {
                VarCharVector vector = new VarCharVector(schema.field(i).type().toArrowField(schema.field(i).name()),
                        allocator);
                vectors[i] = vector;
                vector.allocateNew(rows);
                for (int r = 0; r < rows; r++) {
                    vector.setSafe(r, columns[i][r].getBytes(StandardCharsets.UTF_8));
                }
                vector.setValueCount(rows);
            }
        } catch (RuntimeException | Error e) {
            for (FieldVector v : vectors) {
                if (v != null) {
                    v.close();
                }
            }
            throw e;
        }
        return encode(schema, vectors, rows, allocator);
    }

    private static byte[] encode(Schema schema, FieldVector[] vectors, int rows, BufferAllocator allocator) {
        try (Batch batch = Batch.ofVectors(schema, vectors, rows)) {
            return ArrowIpc.encode(schema, List.of(batch), allocator);
        }
    }
}
