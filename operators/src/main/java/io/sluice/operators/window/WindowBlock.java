package io.sluice.operators.window;

import io.sluice.kernels.Col;
import io.sluice.operators.KeyOrder;
import java.util.Arrays;

/**
 * The structure of a block of rows sorted by PARTITION BY then ORDER BY keys and holding only
 * whole partitions: for each row, where its partition and its peer group (rows of the partition
 * with equal ORDER BY values; the whole partition without ORDER BY) start and end (exclusive).
 * Computed in one pass over the keys.
 */
final class WindowBlock {
    final int rows;
    final int[] partitionStart;
    final int[] partitionEnd;
    final int[] peerStart;
    final int[] peerEnd;

    private WindowBlock(int rows) {
        this.rows = rows;
        partitionStart = new int[rows];
        partitionEnd = new int[rows];
        peerStart = new int[rows];
        peerEnd = new int[rows];
    }

    /**
     * {@code partitionOrder} and {@code peerOrder} compare the key columns {@code partitionKeys} and
     * {@code orderKeys} (only equality matters here).
     */
    static WindowBlock of(int rows, Col[] partitionKeys, KeyOrder partitionOrder, Col[] orderKeys, KeyOrder peerOrder) {
        WindowBlock block = new WindowBlock(rows);
        int partition = 0;
        int peers = 0;
        for (int i = 0; i < rows; i++) {
            boolean newPartition = i > 0 && partitionKeys.length > 0
                    && partitionOrder.compare(partitionKeys, i - 1, partitionKeys, i) != 0;
            if (newPartition) {
                block.close(partition, peers, i);
                partition = i;
                peers = i;
            } else if (i > 0 && orderKeys.length > 0 && peerOrder.compare(orderKeys, i - 1, orderKeys, i) != 0) {
                Arrays.fill(block.peerEnd, peers, i, i);
                peers = i;
            }
            block.partitionStart[i] = partition;
            block.peerStart[i] = peers;
        }
        if (rows > 0) {
            block.close(partition, peers, rows);
        }
        return block;
    }

    /**
     * This block (one partition) with one more row before its first, a peer group of its own: the
     * value a running aggregate had after the rows before a chunk of a spilled partition
     * ({@link WindowSpill}).
     */
    WindowBlock withLeadingRow() {
        WindowBlock out = new WindowBlock(rows + 1);
        out.peerEnd[0] = 1;
        Arrays.fill(out.partitionEnd, rows + 1);
        for (int i = 0; i < rows; i++) {
            out.peerStart[i + 1] = peerStart[i] + 1;
            out.peerEnd[i + 1] = peerEnd[i] + 1;
        }
        return out;
    }

    private void close(int partition, int peers, int end) {
        Arrays.fill(partitionEnd, partition, end, end);
        Arrays.fill(peerEnd, peers, end, end);
    }

    /**
     * The first row of the last partition that starts within rows {@code (from, rows)} of
     * {@code keys}; {@code from} when all those rows are of one partition (the caller compares row
     * {@code from} with the rows before).
     */
    static int lastPartitionStart(Col[] keys, int from, int rows, KeyOrder order) {
        for (int i = rows - 1; i > from; i--) {
            if (order.compare(keys, i - 1, keys, i) != 0) {
                return i;
            }
        }
        return from;
    }

    /** Whether row {@code i} of {@code keys} is in the same partition as row {@code j} of {@code other}. */
    static boolean continues(Col[] keys, int i, Col[] other, int j, KeyOrder order) {
        return order.compare(keys, i, other, j) == 0;
    }
}
