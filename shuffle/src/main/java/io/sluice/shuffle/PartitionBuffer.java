package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.exec.Col;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects one output partition's rows, as heap {@link Col}s, across input batches, so a block
 * gets record batches near the task's batch size instead of one sliver per input batch (with
 * many partitions each input batch gives every partition only a few rows). Holds no Arrow memory.
 *
 * <p>A piece is kept by reference, with the indexes of its rows that belong here when only some
 * do (range and hash placement), and its rows are copied once, when drained, straight into the
 * columns of the batches written: no per-partition gather of each input batch, no concatenation
 * of the pieces followed by slicing into batches. A piece that is exactly one whole batch is
 * passed on as it is.
 */
final class PartitionBuffer {
    private final int columnCount;
    private final List<Col[]> pieces = new ArrayList<>();
    /** Per piece: the row indexes array (null: its rows in order), where they start in it, and how many. */
    private final List<int[]> pieceRows = new ArrayList<>();
    private int[] pieceFrom = new int[8];
    private int[] pieceCount = new int[8];
    private int rows;

    PartitionBuffer(int columnCount) {
        if (columnCount < 0) {
            throw new IllegalArgumentException("negative column count " + columnCount);
        }
        this.columnCount = columnCount;
    }

    int rows() {
        return rows;
    }

    /** All rows of {@code columns}. */
    void add(Col[] columns) {
        add(columns, null, 0, columns.length == 0 ? 0 : columns[0].length);
    }

    /**
     * Rows {@code indexes[from, from + count)} of {@code columns} (with {@code indexes} null: rows
     * {@code [from, from + count)}); the columns and the index array are kept by reference and must
     * not change until drained.
     */
    void add(Col[] columns, int[] indexes, int from, int count) {
        requireNonNull(columns, "columns is null");
        if (columns.length != columnCount) {
            throw new IllegalArgumentException("got " + columns.length + " columns, expected " + columnCount);
        }
        if (count == 0) {
            return;
        }
        int i = pieces.size();
        if (i == pieceFrom.length) {
            pieceFrom = java.util.Arrays.copyOf(pieceFrom, i * 2);
            pieceCount = java.util.Arrays.copyOf(pieceCount, i * 2);
        }
        pieces.add(columns);
        pieceRows.add(indexes);
        pieceFrom[i] = from;
        pieceCount[i] = count;
        rows += count;
    }

    /**
     * The buffered rows in arrival order, as sets of columns of {@code batchSize} rows (the last
     * one fewer); the buffer is empty afterwards.
     */
    List<Col[]> drain(int batchSize) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be positive: " + batchSize);
        }
        List<Col[]> out = new ArrayList<>();
        boolean[] anyNulls = new boolean[columnCount];
        boolean[] anyWide = new boolean[columnCount];
        for (Col[] piece : pieces) {
            for (int c = 0; c < columnCount; c++) {
                anyNulls[c] |= piece[c].nulls != null;
                anyWide[c] |= piece[c].isWide();
            }
        }
        int piece = 0;
        int offset = 0; // rows of the current piece already drained
        int remaining = rows;
        while (remaining > 0) {
            int n = Math.min(batchSize, remaining);
            if (offset == 0 && pieceCount[piece] == n && pieceRows.get(piece) == null && pieceFrom[piece] == 0
                    && wholePiece(pieces.get(piece), n)) {
                out.add(pieces.get(piece));
                piece++;
                remaining -= n;
                continue;
            }
            Col[] batch = new Col[columnCount];
            for (int c = 0; c < columnCount; c++) {
                batch[c] = anyWide[c] ? Col.allocateWide(pieces.get(0)[c].type, n, anyNulls[c])
                        : Col.allocate(pieces.get(0)[c].type, n, anyNulls[c]);
            }
            int at = 0;
            while (at < n) {
                int take = Math.min(n - at, pieceCount[piece] - offset);
                copy(pieces.get(piece), pieceRows.get(piece), pieceFrom[piece] + offset, take, batch, at);
                at += take;
                offset += take;
                if (offset == pieceCount[piece]) {
                    piece++;
                    offset = 0;
                }
            }
            for (int c = 0; c < columnCount; c++) {
                batch[c] = batch[c].compacted();
            }
            out.add(batch);
            remaining -= n;
        }
        pieces.clear();
        pieceRows.clear();
        rows = 0;
        return out;
    }

    private static boolean wholePiece(Col[] columns, int n) {
        for (Col c : columns) {
            if (c.length != n) {
                return false;
            }
        }
        return true;
    }

    /** Copies {@code count} rows of {@code from} (by {@code indexes} from {@code start}, or from row {@code start}) into {@code to} at {@code at}. */
    private static void copy(Col[] from, int[] indexes, int start, int count, Col[] to, int at) {
        for (int c = 0; c < from.length; c++) {
            Col src = from[c];
            Col dst = to[c];
            if (dst.isWide()) {
                for (int i = 0; i < count; i++) {
                    int row = indexes == null ? start + i : indexes[start + i];
                    dst.highs[at + i] = src.high(row);
                    dst.lows[at + i] = src.low(row);
                    if (dst.nulls != null) {
                        dst.nulls[at + i] = src.isNull(row);
                    }
                }
                continue;
            }
            if (indexes == null) {
                switch (src.type.kind()) {
                    case FLOAT64 -> System.arraycopy(src.doubles, start, dst.doubles, at, count);
                    case BOOL, NULL -> System.arraycopy(src.bools, start, dst.bools, at, count);
                    case UTF8 -> System.arraycopy(src.strings, start, dst.strings, at, count);
                    default -> System.arraycopy(src.longs, start, dst.longs, at, count);
                }
                if (src.nulls != null) {
                    System.arraycopy(src.nulls, start, dst.nulls, at, count);
                }
                continue;
            }
            switch (src.type.kind()) {
                case FLOAT64 -> {
                    double[] s = src.doubles;
                    double[] d = dst.doubles;
                    for (int i = 0; i < count; i++) {
                        d[at + i] = s[indexes[start + i]];
                    }
                }
                case BOOL, NULL -> {
                    boolean[] s = src.bools;
                    boolean[] d = dst.bools;
                    for (int i = 0; i < count; i++) {
                        d[at + i] = s[indexes[start + i]];
                    }
                }
                case UTF8 -> {
                    String[] s = src.strings;
                    String[] d = dst.strings;
                    for (int i = 0; i < count; i++) {
                        d[at + i] = s[indexes[start + i]];
                    }
                }
                default -> {
                    long[] s = src.longs;
                    long[] d = dst.longs;
                    for (int i = 0; i < count; i++) {
                        d[at + i] = s[indexes[start + i]];
                    }
                }
            }
            if (src.nulls != null) {
                boolean[] s = src.nulls;
                boolean[] d = dst.nulls;
                for (int i = 0; i < count; i++) {
                    d[at + i] = s[indexes[start + i]];
                }
            }
        }
    }
}
