package io.sluice.operators.sort;

import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.KeyOrder;
import io.sluice.operators.TaskContext;
import io.sluice.operators.expr.BoundExprs;
import io.sluice.operators.memory.HeapSize;
import io.sluice.operators.memory.MemoryReservation;
import io.sluice.operators.memory.SpillRun;
import java.nio.file.Path;
import java.util.List;

/**
 * A k-way merge of sorted runs on disk: one batch of each run in memory (under the sort's
 * reservation), a binary heap of runs ordered by their current row, ties going to the earlier
 * run, so the merge is as stable as the sort that wrote the runs. Each run file is deleted as
 * soon as it is read to the end, and all of them on close.
 */
final class RunMerger implements BatchStream {
    private final Schema schema;
    private final List<SortKey> keys;
    private final BoundExprs keyExprs;
    private final KeyOrder order;
    private final TaskContext context;
    private final MemoryReservation reservation;
    private final SpillRun.Reader[] readers;
    private final Col[][] columns;
    private final Col[][] keyColumns;
    private final int[] position;
    private final long[] held;
    private final int[] heap;
    private int heapSize;

    RunMerger(Schema schema, List<SortKey> keys, List<Path> runs, TaskContext context, MemoryReservation reservation) {
        this.schema = schema;
        this.keys = keys;
        this.keyExprs = BoundExprs.ofSortKeys(keys, schema);
        this.order = new KeyOrder(keys);
        this.context = context;
        this.reservation = reservation;
        int n = runs.size();
        readers = new SpillRun.Reader[n];
        columns = new Col[n][];
        keyColumns = new Col[n][];
        position = new int[n];
        held = new long[n];
        heap = new int[n];
        try {
            for (int r = 0; r < n; r++) {
                readers[r] = new SpillRun.Reader(runs.get(r), schema, context.allocator());
            }
            for (int r = 0; r < n; r++) {
                if (load(r)) {
                    heap[heapSize++] = r;
                    siftUp(heapSize - 1);
                }
            }
        } catch (RuntimeException e) {
            for (int r = 0; r < n; r++) {
                if (readers[r] == null) {
                    io.sluice.operators.memory.SpillFiles.delete(runs.get(r));
                }
            }
            close();
            throw e;
        }
    }

    /** Reads run r's next batch; false (and the run closed) at its end. */
    private boolean load(int r) {
        Col[] next;
        while ((next = readers[r].next()) != null && next.length > 0 && next[0].length == 0) {
            // skip empty batches
        }
        reservation.shrink(held[r]);
        held[r] = 0;
        if (next == null || next.length == 0) {
            columns[r] = null;
            keyColumns[r] = null;
            readers[r].close();
            return false;
        }
        int rows = next[0].length;
        Col[] k;
        try (Batch batch = Batch.of(schema, next, rows, context.allocator())) {
            k = keyExprs.evaluateAll(batch);
        }
        long bytes = HeapSize.of(next) + HeapSize.of(k);
        reservation.grow(bytes);
        held[r] = bytes;
        columns[r] = next;
        keyColumns[r] = k;
        position[r] = 0;
        return true;
    }

    private boolean less(int a, int b) {
        int cmp = order.compare(keyColumns[a], position[a], keyColumns[b], position[b]);
        return cmp < 0 || (cmp == 0 && a < b);
    }

    private void siftUp(int i) {
        while (i > 0) {
            int parent = (i - 1) / 2;
            if (!less(heap[i], heap[parent])) {
                return;
            }
            int t = heap[i];
            heap[i] = heap[parent];
            heap[parent] = t;
            i = parent;
        }
    }

    private void siftDown(int i) {
        while (true) {
            int left = 2 * i + 1;
            if (left >= heapSize) {
                return;
            }
            int smallest = left + 1 < heapSize && less(heap[left + 1], heap[left]) ? left + 1 : left;
            if (!less(heap[smallest], heap[i])) {
                return;
            }
            int t = heap[i];
            heap[i] = heap[smallest];
            heap[smallest] = t;
            i = smallest;
        }
    }

    @Override
    public Batch next() {
        if (heapSize == 0) {
            return null;
        }
        context.checkNotCancelled();
        int batchSize = context.batchSize();
        Col[][] sources = new Col[batchSize][];
        int[] rows = new int[batchSize];
        int count = 0;
        while (count < batchSize && heapSize > 0) {
            int r = heap[0];
            sources[count] = columns[r];
            rows[count] = position[r];
            count++;
            if (++position[r] == columns[r][0].length) {
                if (!load(r)) {
                    heap[0] = heap[--heapSize];
                }
            }
            if (heapSize > 0) {
                siftDown(0);
            }
        }
        Col[] out = new Col[schema.size()];
        for (int c = 0; c < out.length; c++) {
            out[c] = gather(sources, rows, count, c).compacted();
        }
        return Batch.of(schema, out, count, context.allocator());
    }

    /** Column {@code c} of the rows {@code rows[i]} of chunks {@code sources[i]}. */
    private Col gather(Col[][] sources, int[] rows, int count, int c) {
        Col first = sources[0][c];
        boolean anyNulls = false;
        for (int i = 0; i < count && !anyNulls; i++) {
            anyNulls = sources[i][c].nulls != null;
        }
        Col out = first.type.isWideDecimal() ? Col.allocateWide(first.type, count, anyNulls)
                : Col.allocate(first.type, count, anyNulls);
        switch (first.type.kind()) {
            case FLOAT64 -> {
                for (int i = 0; i < count; i++) {
                    out.doubles[i] = sources[i][c].doubles[rows[i]];
                }
            }
            case BOOL, NULL -> {
                for (int i = 0; i < count; i++) {
                    out.bools[i] = sources[i][c].bools[rows[i]];
                }
            }
            case UTF8 -> {
                for (int i = 0; i < count; i++) {
                    out.strings[i] = sources[i][c].strings[rows[i]];
                }
            }
            case STRUCT, LIST, MAP -> {
                for (int i = 0; i < count; i++) {
                    out.objects[i] = sources[i][c].objects[rows[i]];
                }
            }
            default -> {
                if (out.isWide()) {
                    for (int i = 0; i < count; i++) {
                        out.highs[i] = sources[i][c].high(rows[i]);
                        out.lows[i] = sources[i][c].low(rows[i]);
                    }
                } else {
                    for (int i = 0; i < count; i++) {
                        out.longs[i] = sources[i][c].longs[rows[i]];
                    }
                }
            }
        }
        if (anyNulls) {
            for (int i = 0; i < count; i++) {
                out.nulls[i] = sources[i][c].isNull(rows[i]);
            }
        }
        return out;
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        for (SpillRun.Reader reader : readers) {
            if (reader != null) {
                try {
                    reader.close();
                } catch (RuntimeException e) {
                    failure = failure == null ? e : failure;
                }
            }
        }
        reservation.close();
        if (failure != null) {
            throw failure;
        }
    }
}
