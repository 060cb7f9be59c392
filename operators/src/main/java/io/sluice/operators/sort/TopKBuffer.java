package io.sluice.operators.sort;

import io.sluice.kernels.Col;
import io.sluice.operators.ColChunks;
import io.sluice.operators.KeyOrder;
import io.sluice.operators.memory.HeapSize;
import java.util.ArrayList;
import java.util.List;

/**
 * The first {@code k} rows under a {@link KeyOrder}, kept while rows stream in: a buffer that is
 * sorted and cut back to {@code k} rows whenever it passes {@code 2k}. Once {@code k} rows are
 * kept, the last of them is a bound: an incoming row that does not sort strictly before it can
 * never enter, and is dropped on arrival. Memory stays below {@code 2k} rows plus one batch,
 * whatever the input size.
 *
 * <p>The result is exactly a stable sort of all rows cut to {@code k}: ties keep arrival order,
 * because the sort is stable and later rows are appended after the kept ones.
 */
final class TopKBuffer {
    private final KeyOrder order;
    private final int k;
    private final List<Col[]> columnChunks = new ArrayList<>();
    private final List<Col[]> keyChunks = new ArrayList<>();
    private int buffered;
    private long heapBytes;
    private int peakBuffered;
    private Col[] bound; // the k-th row's keys once k rows are kept, else null

    TopKBuffer(KeyOrder order, int k) {
        if (k < 1) {
            throw new IllegalArgumentException("top-k needs k >= 1, got " + k);
        }
        this.order = order;
        this.k = k;
    }

    /** Offers a batch's rows: its columns and its evaluated sort keys. */
    void add(Col[] columns, Col[] keys, int rows) {
        if (rows == 0) {
            return;
        }
        if (bound != null) {
            int[] kept = new int[rows];
            int count = 0;
            for (int r = 0; r < rows; r++) {
                if (order.compare(keys, r, bound, 0) < 0) {
                    kept[count++] = r;
                }
            }
            if (count == 0) {
                return;
            }
            if (count < rows) {
                columns = gather(columns, kept, count);
                keys = gather(keys, kept, count);
                rows = count;
            }
        }
        columnChunks.add(columns);
        keyChunks.add(keys);
        buffered += rows;
        heapBytes += HeapSize.of(columns) + HeapSize.of(keys);
        peakBuffered = Math.max(peakBuffered, buffered);
        if (buffered > 2 * (long) k) {
            prune();
        }
    }

    /** The kept rows in order (at most k), as one chunk of columns. */
    Col[] result() {
        prune();
        return columnChunks.isEmpty() ? null : columnChunks.get(0);
    }

    /** Rows kept now (at most k after {@link #result}). */
    int size() {
        return buffered;
    }

    /** Estimated heap bytes of the rows kept now (their columns and keys). */
    long heapBytes() {
        return heapBytes;
    }

    /** The most rows ever held at once. */
    int peakSize() {
        return peakBuffered;
    }

    /** Sorts the buffer, keeps its first k rows as one chunk and updates the bound. */
    private void prune() {
        if (columnChunks.isEmpty()) {
            return;
        }
        Col[] keys = concat(keyChunks);
        int[] sorted = order.sortedIndexes(keys, buffered);
        int keep = Math.min(k, buffered);
        Col[] keptColumns = gather(concat(columnChunks), sorted, keep);
        Col[] keptKeys = gather(keys, sorted, keep);
        columnChunks.clear();
        keyChunks.clear();
        columnChunks.add(keptColumns);
        keyChunks.add(keptKeys);
        buffered = keep;
        heapBytes = HeapSize.of(keptColumns) + HeapSize.of(keptKeys);
        if (keep == k) {
            int[] last = {keep - 1};
            bound = gather(keptKeys, last, 1);
        }
    }

    private static Col[] concat(List<Col[]> chunks) {
        return ColChunks.concat(chunks);
    }

    private static Col[] gather(Col[] columns, int[] rows, int count) {
        return ColChunks.gather(columns, rows, count);
    }
}
