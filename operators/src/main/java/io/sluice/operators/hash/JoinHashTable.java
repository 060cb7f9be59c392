package io.sluice.operators.hash;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.kernels.InPlaceValues;
import io.sluice.operators.memory.HeapSize;

/**
 * The build side of a hash join: every build row index, grouped by key. Rows with a non-NULL key
 * are numbered by a {@link GroupTable} (one group per distinct key) and laid out group after group
 * in {@link #rows()}, so the build rows matching group {@code g} are
 * {@code rows()[groupStart(g) .. groupEnd(g))}. Rows with a NULL in any key column match nothing
 * and come last, at {@code rows()[nullStart() .. buildRows())}; the whole array lists every build
 * row once.
 *
 * <p>A single integer key whose non-NULL values span a range no larger than the hash table would
 * be (a surrogate key, a dense id: {@link #directRange}) is numbered through a direct array over
 * that range instead (a perfect hash: {@code direct[key - min]} is the key's group + 1, 0 for
 * none), which a probe reads with no hashing and no collision loop, and in the probe keys' order:
 * probe keys that come sorted or clustered (a fact table's foreign key, as TPC-H's lineitem holds
 * its order key) read it near where they read last, where a hash scatters them over the table.
 * The groups are the same, numbered in first-seen order either way.
 *
 * <p>Holds only heap arrays; it does not own the build columns.
 */
public final class JoinHashTable {
    /** Bytes a direct array takes per key value in its range. */
    private static final int DIRECT_BYTES_PER_VALUE = Integer.BYTES;

    private final GroupTable groups; // null when keyed by the direct array
    private final int[] direct;
    private final long directMin;
    private final int[] starts; // group g's rows are order[starts[g] .. starts[g + 1])
    private final int[] order;
    private final int nullStart;
    private final boolean rowPerGroup;

    /** Estimated heap bytes of the table (not of the build rows it indexes). */
    public long heapBytes() {
        return (groups == null ? HeapSize.ints(direct.length) : groups.heapBytes()) + HeapSize.ints(starts.length)
                + HeapSize.ints(order.length);
    }

    private JoinHashTable(GroupTable groups, int[] direct, long directMin, int[] starts, int[] order, int nullStart,
            boolean rowPerGroup) {
        this.rowPerGroup = rowPerGroup;
        this.groups = groups;
        this.direct = direct;
        this.directMin = directMin;
        this.starts = starts;
        this.order = order;
        this.nullStart = nullStart;
    }

    /** Indexes build rows {@code [0, rows)} by their key columns. */
    public static JoinHashTable build(Col[] keys, DataType[] keyTypes, int rows) {
        boolean[] nullKey = anyNull(keys, rows);
        GroupTable groups = null;
        int[] ids;
        int groupCount;
        long[] range = directRange(keys, keyTypes, rows, nullKey);
        int[] direct = null;
        if (range != null) {
            direct = new int[(int) (range[1] - range[0] + 1)];
            long min = range[0];
            long[] values = keys[0].longs;
            ids = new int[rows];
            groupCount = 0;
            for (int r = 0; r < rows; r++) {
                if (nullKey != null && nullKey[r]) {
                    ids[r] = -1;
                    continue;
                }
                int at = (int) (values[r] - min);
                int g = direct[at];
                if (g == 0) {
                    g = ++groupCount;
                    direct[at] = g;
                }
                ids[r] = g - 1;
            }
        } else {
            groups = new GroupTable(keyTypes);
            ids = groups.groupIds(keys, rows, nullKey);
            groupCount = groups.groupCount();
        }
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
        return new JoinHashTable(groups, direct, range == null ? 0 : range[0], starts, order, starts[groupCount],
                rowPerGroup);
    }

    /**
     * The {min, max} of a single integer key's non-NULL values when a direct array over them takes
     * no more memory than the hash table a unique key of as many values would (one int per value
     * in the range against {@link InlineSlots#bytesFor} per key: a range up to 8 to 16 times
     * the keys, a hash partition's share of a dense key included), else null.
     */
    private static long[] directRange(Col[] keys, DataType[] keyTypes, int rows, boolean[] nullKey) {
        if (keys.length != 1 || keys[0].longs == null) {
            return null;
        }
        DataType.Kind kind = keyTypes[0].kind();
        if (kind != DataType.Kind.INT32 && kind != DataType.Kind.INT64 && kind != DataType.Kind.DATE32) {
            return null;
        }
        long[] values = keys[0].longs;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        int present = 0;
        for (int r = 0; r < rows; r++) {
            if (nullKey == null || !nullKey[r]) {
                long v = values[r];
                min = Math.min(min, v);
                max = Math.max(max, v);
                present++;
            }
        }
        if (min > max) {
            return null; // no non-NULL key
        }
        long span = max - min; // negative when the difference overflows a long
        long limit = Math.min(InlineSlots.bytesFor(present) / DIRECT_BYTES_PER_VALUE, Integer.MAX_VALUE - 16);
        return span >= 0 && span < limit ? new long[] {min, max} : null;
    }

    /**
     * The group of each probe row's key, or -1 when the key has a NULL or matches no build row.
     * Hashes all rows a column at a time, then probes each row once.
     */
    public int[] probe(Col[] keys, int rows) {
        boolean[] skip = anyNull(keys, rows);
        if (groups != null) {
            return groups.find(keys, rows, skip);
        }
        int[] ids = new int[rows];
        long[] values = keys[0].longs;
        if (values == null) {
            // a probe key in 128-bit form: only values that fit a long can be in the range
            Col c = keys[0];
            for (int r = 0; r < rows; r++) {
                boolean fits = (skip == null || !skip[r]) && io.sluice.kernels.Int128.fitsLong(c.high(r), c.low(r));
                ids[r] = fits ? directId(c.low(r)) : -1;
            }
            return ids;
        }
        for (int r = 0; r < rows; r++) {
            ids[r] = directId(values[r]);
        }
        if (skip != null) {
            for (int r = 0; r < rows; r++) {
                if (skip[r]) {
                    ids[r] = -1;
                }
            }
        }
        return ids;
    }

    /** Whether {@link #probe(InPlaceValues, int)} applies: one long-backed key (a direct array or its group table). */
    public boolean probesInPlace() {
        return groups == null || groups.takesInPlaceKey();
    }

    /**
     * {@link #probe(Col[], int)} for one long-backed key read in place from its Arrow vector (no
     * column unpacked): the group of each row, or -1 when the key is NULL or matches no build row.
     */
    public int[] probe(InPlaceValues key, int rows) {
        if (key.doubles) {
            throw new IllegalStateException("a join table of long keys cannot be probed with doubles");
        }
        int[] ids = new int[rows];
        if (groups != null) {
            return groups.find(key, rows, ids);
        }
        for (int r = 0; r < rows; r++) {
            ids[r] = key.isNull(r) ? -1 : directId(key.longAt(r));
        }
        return ids;
    }

    /** The group of a key in the direct array, or -1. */
    private int directId(long key) {
        long at = key - directMin; // out of range (also after overflow) compares unsigned as too large
        return Long.compareUnsigned(at, direct.length) < 0 ? direct[(int) at] - 1 : -1;
    }

    /** Whether every build row is its own group and group {@code g} is build row {@code g} (no NULL key). */
    public boolean rowPerGroup() {
        return rowPerGroup;
    }

    public int groupStart(int group) {
        return starts[group];
    }

    public int groupEnd(int group) {
        return starts[group + 1];
    }

    /** Every build row index, grouped by key, NULL-key rows last. */
    public int[] rows() {
        return order;
    }

    public int buildRows() {
        return order.length;
    }

    /** Where the NULL-key build rows begin in {@link #rows()}. */
    public int nullStart() {
        return nullStart;
    }

    /** Per row, whether any key column is NULL there; null when no key column has a NULL. */
    public static boolean[] anyNull(Col[] keys, int rows) {
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
