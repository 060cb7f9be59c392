package io.sluice.operators.join;

import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Expr;
import io.sluice.operators.KeyOrder;
import io.sluice.operators.expr.BoundExprs;
import java.util.List;

/**
 * One sorted input of a merge join, seen as a run of key groups. It holds a chunk of rows on the
 * heap (the rest of the previous batch plus the latest one), with a flag per row for "starts a new
 * key" computed a column at a time, and a cursor {@link #pos} at the first unconsumed row.
 *
 * <p>Invariant offered to the merge: after {@link #refill()} returns with {@link #needsRefill()}
 * false, the group at {@code pos} (if any) is complete, i.e. followed by a different key or by the
 * end of the input. A chunk is replaced only by a refill, which keeps the unconsumed rows.
 */
final class MergeSide {
    private final BatchStream stream;
    private final List<Expr> keys;
    private BoundExprs bound; // bound to the first batch's schema
    Col[] columns;
    Col[] keyColumns;
    int rows;
    int pos;
    boolean[] matched;
    private boolean[] startsGroup;
    private boolean exhausted;

    MergeSide(BatchStream stream, List<Expr> keys, Col[] emptyColumns, Col[] emptyKeys) {
        this.stream = stream;
        this.keys = keys;
        this.columns = emptyColumns;
        this.keyColumns = emptyKeys;
        this.matched = new boolean[0];
        this.startsGroup = new boolean[0];
    }

    boolean available() {
        return pos < rows;
    }

    /** End (exclusive) of the key group starting at {@link #pos}. */
    int groupEnd() {
        int end = pos + 1;
        while (end < rows && !startsGroup[end]) {
            end++;
        }
        return end;
    }

    /** Whether the group at {@code pos} may continue in batches not read yet. */
    boolean needsRefill() {
        if (exhausted) {
            return false;
        }
        return pos == rows || groupEnd() == rows;
    }

    /** Whether the group at {@code pos} has a NULL key (all its rows do: NULLs group together). */
    boolean groupHasNull() {
        for (Col k : keyColumns) {
            if (k.isNull(pos)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Reads the next non-empty batch and appends it to the unconsumed rows, or marks the input
     * exhausted. Row indexes and matched flags of the old chunk are invalid afterwards.
     */
    void refill() {
        Batch next;
        while ((next = stream.next()) != null) {
            try (Batch batch = next) {
                if (batch.rowCount() == 0) {
                    continue;
                }
                if (bound == null) {
                    bound = new BoundExprs(keys, batch.schema());
                }
                Col[] newKeys = bound.evaluateAll(batch);
                columns = append(columns, batch.columns());
                keyColumns = append(keyColumns, newKeys);
                rows = rows - pos + batch.rowCount();
                pos = 0;
                matched = new boolean[rows];
                startsGroup = groupStarts(keyColumns, rows);
                return;
            }
        }
        exhausted = true;
    }

    /** Rows {@code [pos, rows)} of {@code old} followed by {@code added}. */
    private Col[] append(Col[] old, Col[] added) {
        if (pos == rows) {
            return added;
        }
        Col[] out = new Col[old.length];
        for (int c = 0; c < old.length; c++) {
            out[c] = Col.concat(old[c].type, List.of(old[c].slice(pos, rows - pos), added[c]));
        }
        return out;
    }

    /** Per row, whether its key differs from the previous row's; one typed loop per key column. */
    static boolean[] groupStarts(Col[] keys, int rows) {
        boolean[] starts = new boolean[rows];
        if (rows == 0) {
            return starts;
        }
        starts[0] = true;
        boolean[] differs = new boolean[rows];
        for (Col c : keys) {
            switch (c.type.kind()) {
                case FLOAT64 -> {
                    double[] v = c.doubles;
                    for (int i = 1; i < rows; i++) {
                        differs[i] = KeyOrder.compareDoubles(v[i], v[i - 1]) != 0;
                    }
                }
                case UTF8 -> {
                    String[] v = c.strings;
                    for (int i = 1; i < rows; i++) {
                        differs[i] = v[i] == null ? v[i - 1] != null : !v[i].equals(v[i - 1]);
                    }
                }
                case BOOL, NULL -> {
                    boolean[] v = c.bools;
                    for (int i = 1; i < rows; i++) {
                        differs[i] = v[i] != v[i - 1];
                    }
                }
                default -> {
                    if (c.isWide()) {
                        for (int i = 1; i < rows; i++) {
                            differs[i] = c.highs[i] != c.highs[i - 1] || c.lows[i] != c.lows[i - 1];
                        }
                    } else {
                        long[] v = c.longs;
                        for (int i = 1; i < rows; i++) {
                            differs[i] = v[i] != v[i - 1];
                        }
                    }
                }
            }
            boolean[] nulls = c.nulls;
            if (nulls != null) {
                // Values under a NULL are arbitrary: NULL next to NULL is the same key, next to a value not.
                for (int i = 1; i < rows; i++) {
                    if (nulls[i] | nulls[i - 1]) {
                        differs[i] = nulls[i] != nulls[i - 1];
                    }
                }
            }
            for (int i = 1; i < rows; i++) {
                starts[i] |= differs[i];
            }
        }
        return starts;
    }

    void close() {
        stream.close();
    }
}
