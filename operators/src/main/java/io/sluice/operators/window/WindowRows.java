package io.sluice.operators.window;

import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.operators.memory.HeapSize;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.util.TransferPair;

/**
 * The rows a window operator buffers until their partitions end: ranges of its input batches, kept
 * in the forms the batches hold their columns (an Arrow vector stays a vector: no column unpacked,
 * no string decoded), beside the window's evaluated columns (keys and arguments) of the whole batch.
 * On {@link #emit} each range leaves as one output batch: its input vectors moved or split out of
 * the input batch (Arrow's transfer, no row copied for a whole batch), then the computed columns.
 *
 * <p>A batch is held by at most two ranges, the rows before its last partition start and the rows
 * after; it is closed when its last range leaves ({@link #emit}, {@link #spill} or {@link #close}).
 */
final class WindowRows implements AutoCloseable {
    private record Range(Batch batch, int from, int count, Col[] evaluated, boolean lastOfBatch) {
        void release() {
            if (lastOfBatch) {
                batch.close();
            }
        }
    }

    private final List<Range> ranges = new ArrayList<>();
    private int rows;

    /**
     * Holds rows {@code [from, from + count)} of {@code batch}; {@code evaluated} are the window's
     * columns of the whole batch. {@code lastOfBatch}: this range ends the batch, which then closes
     * with it. Returns the heap bytes the range adds (its share of the columns held only on the heap;
     * the Arrow buffers count in the task's allocator).
     */
    long add(Batch batch, int from, int count, Col[] evaluated, boolean lastOfBatch) {
        ranges.add(new Range(batch, from, count, evaluated, lastOfBatch));
        rows += count;
        long heap = 0;
        for (int i = 0; i < batch.schema().size(); i++) {
            if (batch.arrowVector(i) == null) {
                heap += HeapSize.of(batch.column(i));
            }
        }
        for (Col c : evaluated) {
            heap += HeapSize.of(c);
        }
        return heap * count / Math.max(1, batch.rowCount());
    }

    int rows() {
        return rows;
    }

    boolean isEmpty() {
        return ranges.isEmpty();
    }

    /** The evaluated columns and the row (within them) of the last row held; the caller checks it is not empty. */
    Col[] lastEvaluated() {
        return ranges.get(ranges.size() - 1).evaluated;
    }

    int lastRow() {
        Range last = ranges.get(ranges.size() - 1);
        return last.from + last.count - 1;
    }

    /** The evaluated columns of every row held, one after the other (no copy when one whole batch is held). */
    Col[] evaluated(int width) {
        Col[] out = new Col[width];
        for (int c = 0; c < width; c++) {
            if (ranges.size() == 1) {
                Range r = ranges.get(0);
                out[c] = r.evaluated[c].slice(r.from, r.count);
                continue;
            }
            List<Col> parts = new ArrayList<>(ranges.size());
            for (Range r : ranges) {
                parts.add(r.evaluated[c].slice(r.from, r.count));
            }
            out[c] = Col.concat(parts.get(0).type, parts);
        }
        return out;
    }

    /**
     * Every range as output batches of {@code schema} and at most {@code batchSize} rows: the input
     * columns passed through, then {@code computed} (columns over all rows held, in order) written as
     * Arrow vectors. Empties this.
     */
    void emit(Schema schema, Col[] computed, int batchSize, BufferAllocator allocator, Consumer<Batch> out) {
        int offset = 0;
        try {
            for (Range r : ranges) {
                for (int from = 0; from < r.count; from += batchSize) {
                    int count = Math.min(batchSize, r.count - from);
                    out.accept(output(schema, r, r.from + from, count, computed, offset + from, allocator));
                }
                offset += r.count;
            }
        } finally {
            clear();
        }
    }

    /** Rows {@code [from, from + count)} of range {@code r}'s batch, with rows {@code [offset, offset + count)} of {@code computed}. */
    private static Batch output(Schema schema, Range r, int from, int count, Col[] computed, int offset,
            BufferAllocator allocator) {
        int width = r.batch.schema().size();
        Col[] cols = new Col[schema.size()];
        FieldVector[] vectors = new FieldVector[schema.size()];
        boolean whole = from == 0 && count == r.batch.rowCount();
        try {
            for (int i = 0; i < width; i++) {
                FieldVector v = r.batch.arrowVector(i);
                if (v != null) {
                    vectors[i] = moved(v, from, count, whole, allocator);
                }
                if (v == null || whole && r.batch.hasColumn(i)) {
                    cols[i] = r.batch.column(i).slice(from, count);
                }
            }
            for (int c = 0; c < computed.length; c++) {
                vectors[width + c] = computed[c].slice(offset, count).write(schema.field(width + c).name(), allocator);
            }
        } catch (RuntimeException | Error e) {
            for (FieldVector v : vectors) {
                if (v != null) {
                    v.close();
                }
            }
            throw e;
        }
        return Batch.of(schema, cols, vectors, count, allocator);
    }

    /** Rows {@code [from, from + count)} of {@code v} in a vector of their own: its buffers moved when it leaves whole. */
    private static FieldVector moved(FieldVector v, int from, int count, boolean whole, BufferAllocator allocator) {
        TransferPair pair = v.getTransferPair(allocator);
        if (whole) {
            pair.transfer();
        } else {
            pair.splitAndTransfer(from, count);
        }
        return (FieldVector) pair.getTo();
    }

    /** Every range written to {@code spill} (the input columns unpacked: the spill run is written from heap columns). Empties this. */
    void spill(WindowSpill spill, int partitionKeys) {
        try {
            for (Range r : ranges) {
                spill.write(r.batch.columns(), r.evaluated, partitionKeys, r.from, r.count);
            }
        } finally {
            clear();
        }
    }

    private void clear() {
        RuntimeException failure = null;
        for (Range r : ranges) {
            try {
                r.release();
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        ranges.clear();
        rows = 0;
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public void close() {
        clear();
    }
}
