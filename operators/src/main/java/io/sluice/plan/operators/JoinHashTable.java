package io.sluice.plan.operators;

import io.sluice.plan.exec.Col;
import io.sluice.plan.memory.HeapSize;
import io.sluice.plan.types.DataType;

/**
 * The build side of a hash join: every build row index, grouped by key. Rows with a non-NULL key
 * are numbered by a {@link GroupTable} (one group per distinct key) and laid out group after group
 * in {@link #rows()}, so the build rows matching group {@code g} are
 * {@code rows()[groupStart(g) .. groupEnd(g))}. Rows with a NULL in any key column match nothing
 * and come last, at {@code rows()[nullStart() .. buildRows())}; the whole array lists every build
 * row once.
 *
 * <p>Holds only heap arrays; it does not own the build columns.
 */
final class JoinHashTable {
    private final GroupTable groups;
    private final int[] starts; // group g's rows are order[starts[g] .. starts[g + 1])
    private final int[] order;
    private final int nullStart;
    private final boolean rowPerGroup;

    /** Estimated heap bytes of the table (not of the build rows it indexes). */
    long heapBytes() {
        return groups.heapBytes() + HeapSize.ints(starts.length) + HeapSize.ints(order.length);
    }

    private JoinHashTable(GroupTable groups, int[] starts, int[] order, int nullStart, boolean rowPerGroup) {
        this.rowPerGroup = rowPerGroup;
        this.groups = groups;
        this.starts = starts;
        this.order = order;
        this.nullStart = nullStart;
    }

    /** Indexes build rows {@code [0, rows)} by their key columns. */
    static JoinHashTable build(Col[] keys, DataType[] keyTypes, int rows) {
        GroupTable groups = new GroupTable(keyTypes);
        boolean[] nullKey = anyNull(keys, rows);
        int[] ids = groups.groupIds(keys, rows, nullKey);
        int groupCount = groups.groupCount();
        // Counting sort of rows by group id; NULL-key rows (id -1) go into an extra last bucket.
        int[] starts = new int[groupCount + 2];
        for (int r = 0; r < rows; r++) {
            int id = ids[r];
            starts[(id < 0 ? groupCount : id) + 1]++;
        }
        for (int g = 0; g <= groupCount; g++) {
            starts[g + 1] += starts[g];
        }
        int[] fill = java.util.Arrays.copyOf(starts, groupCount + 1);
        int[] order = new int[rows];
        for (int r = 0; r < rows; r++) {
            int id = ids[r];
            order[fill[id < 0 ? groupCount : id]++] = r;
        }
        // A unique key with no NULL (the common build side of a key/foreign-key join): groups are
        // numbered in first-seen order, so group g is build row g, and a probe skips the two
        // dependent lookups (starts, order) into arrays as large as the build side.
        boolean rowPerGroup = groupCount == rows;
        for (int r = 0; r < rows && rowPerGroup; r++) {
            rowPerGroup = ids[r] == r;
        }
        return new JoinHashTable(groups, starts, order, starts[groupCount], rowPerGroup);
    }

    /**
     * The group of each probe row's key, or -1 when the key has a NULL or matches no build row.
     * Hashes all rows a column at a time, then probes each row once.
     */
    int[] probe(Col[] keys, int rows) {
        return groups.find(keys, rows, anyNull(keys, rows));
    }

    /** Whether every build row is its own group and group {@code g} is build row {@code g} (no NULL key). */
    boolean rowPerGroup() {
        return rowPerGroup;
    }

    int groupStart(int group) {
        return starts[group];
    }

    int groupEnd(int group) {
        return starts[group + 1];
    }

    /** Every build row index, grouped by key, NULL-key rows last. */
    int[] rows() {
        return order;
    }

    int buildRows() {
        return order.length;
    }

    /** Where the NULL-key build rows begin in {@link #rows()}. */
    int nullStart() {
        return nullStart;
    }

    /** Per row, whether any key column is NULL there; null when no key column has a NULL. */
    static boolean[] anyNull(Col[] keys, int rows) {
        boolean[] out = null;
        for (Col c : keys) {
            if (c.nulls == null) {
                continue;
            }
            if (out == null) {
                out = new boolean[rows];
            }
            boolean[] nulls = c.nulls;
            for (int r = 0; r < rows; r++) {
                out[r] |= nulls[r];
            }
        }
        return out;
    }
}
