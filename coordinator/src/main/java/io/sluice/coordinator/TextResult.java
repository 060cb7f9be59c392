package io.sluice.coordinator;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.ArrowIpc;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/** The result of a statement that answers in words: a status or a plan (one text column, one row per line), a setting. */
final class TextResult {
    private TextResult() {
    }

    /** {@code text} as an Arrow IPC stream of one column named {@code column}, one row per line. */
    static byte[] encode(String column, String text, BufferAllocator allocator) {
        String[] lines = text.split("\n");
        Schema schema = Schema.of(new Field(column, DataType.UTF8));
        try (Batch batch = Batch.of(schema, new Col[] {Col.ofStrings(lines, null)}, lines.length, allocator)) {
            return ArrowIpc.encode(schema, List.of(batch), allocator);
        }
    }

    /** One row of two text columns {@code key} and {@code value}: what Spark's {@code SET} answers. */
    static byte[] keyValue(String key, String value, BufferAllocator allocator) {
        Schema schema = Schema.of(new Field("key", DataType.UTF8), new Field("value", DataType.UTF8));
        try (Batch batch = Batch.of(schema, new Col[] {Col.ofStrings(new String[] {key}, null),
            Col.ofStrings(new String[] {value}, null)}, 1, allocator)) {
            return ArrowIpc.encode(schema, List.of(batch), allocator);
        }
    }
}
