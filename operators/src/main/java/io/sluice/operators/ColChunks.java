package io.sluice.operators;

import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import java.util.ArrayList;
import java.util.List;

/** Column sets of several chunks of rows: concatenating and gathering them. */
public final class ColChunks {
    private ColChunks() {
    }

    /** The chunks' rows one after the other, as one set of columns (the chunks must be non-empty in number). */
    public static Col[] concat(List<Col[]> chunks) {
        if (chunks.size() == 1) {
            return chunks.get(0);
        }
        Col[] out = new Col[chunks.get(0).length];
        for (int c = 0; c < out.length; c++) {
            List<Col> parts = new ArrayList<>(chunks.size());
            for (Col[] chunk : chunks) {
                parts.add(chunk[c]);
            }
            out[c] = Col.concat(parts.get(0).type, parts);
        }
        return out;
    }

    /** Rows {@code [from, from + count)} of every column. */
    public static Col[] slice(Col[] columns, int from, int count) {
        Col[] out = new Col[columns.length];
        for (int c = 0; c < out.length; c++) {
            out[c] = columns[c].slice(from, count);
        }
        return out;
    }

    /** Rows {@code rows[0..count)} of every column. */
    public static Col[] gather(Col[] columns, int[] rows, int count) {
        Col[] out = new Col[columns.length];
        for (int c = 0; c < out.length; c++) {
            out[c] = columns[c].gather(rows, count);
        }
        return out;
    }

    /** Rows {@code [from, from + count)} of something held whole, as columns. */
    public interface Slice {
        Col[] rows(int from, int count);
    }

    /** {@code total} rows served by {@code slice} in batches of the task's batch size; {@code onClose} runs on close. */
    public static BatchStream inBatches(Schema schema, int total, TaskContext context, Slice slice, Runnable onClose) {
        return batches(total, context, (from, count) -> Batch.of(schema, slice.rows(from, count), count,
                context.allocator()), onClose);
    }

    /** Rows {@code [from, from + count)} of something held whole, as a batch the caller owns. */
    public interface BatchSlice {
        Batch rows(int from, int count);
    }

    /** {@code total} rows served by {@code slice} in batches of the task's batch size; {@code onClose} runs on close. */
    public static BatchStream batches(int total, TaskContext context, BatchSlice slice, Runnable onClose) {
        int batchSize = context.batchSize();
        return new BatchStream() {
            private int next;

            @Override
            public Batch next() {
                if (next >= total) {
                    return null;
                }
                int count = Math.min(batchSize, total - next);
                Batch out = slice.rows(next, count);
                next += count;
                return out;
            }

            @Override
            public void close() {
                onClose.run();
            }
        };
    }
}
