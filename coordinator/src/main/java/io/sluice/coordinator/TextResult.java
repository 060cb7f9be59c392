package io.sluice.coordinator;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.ArrowIpc;
import io.sluice.kernels.Batch;
import io.sluice.kernels.ValueBatch;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

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
        return encode(Schema.of(new Field(column, DataType.UTF8)), allocator, lines.length, (Object) lines);
    }

    /** One row of two text columns {@code key} and {@code value}: what Spark's {@code SET} answers. */
    static byte[] keyValue(String key, String value, BufferAllocator allocator) {
        Schema schema = Schema.of(new Field("key", DataType.UTF8), new Field("value", DataType.UTF8));
        return encode(schema, allocator, 1, new String[] {key}, new String[] {value});
    }

    /** One row of one BIGINT column {@code column}: a count (the rows a write wrote). */
    static byte[] count(String column, long value, BufferAllocator allocator) {
        return encode(Schema.of(new Field(column, DataType.INT64)), allocator, 1, new long[] {value});
    }

    /** Columns of {@code rows} rows ({@link ValueBatch#of}), as an Arrow IPC stream. */
    private static byte[] encode(Schema schema, BufferAllocator allocator, int rows, Object... columns) {
        try (Batch batch = ValueBatch.of(schema, allocator, rows, columns)) {
            return ArrowIpc.encode(schema, List.of(batch), allocator);
        }
    }
}
