package io.sluice.operators;

import io.sluice.kernels.Col;
import io.sluice.kernels.Int128;
import io.sluice.logical.expr.SortKey;
import java.util.List;

/**
 * The order of key tuples under a list of {@link SortKey}s (per key its direction and where NULLs
 * go, independent of direction), and a stable sort by it. One definition shared by sorting, range
 * partitioning, boundary computation and merge joins, so that they agree on which rows are equal
 * and which come first.
 *
 * <p>FLOAT64 compares as {@link Double#compare} except that {@code -0.0} equals {@code 0.0}, as
 * in SQL equality and in hash placement: equal join keys must never be split between ranges. NaN
 * sorts after every other number. Strings compare by UTF-16 code units. Long-backed columns
 * (integers, dates, decimals of one scale) compare as longs, so an INT32 and an INT64 column
 * compare by value.
 */
public final class KeyOrder {
    private final boolean[] ascending;
    private final boolean[] nullsFirst;

    public KeyOrder(List<SortKey> keys) {
        ascending = new boolean[keys.size()];
        nullsFirst = new boolean[keys.size()];
        for (int i = 0; i < ascending.length; i++) {
            ascending[i] = keys.get(i).ascending();
            nullsFirst[i] = keys.get(i).nullsFirst();
        }
    }

    public int size() {
        return ascending.length;
    }

    /** Whether key {@code k} sorts ascending. */
    public boolean ascending(int k) {
        return ascending[k];
    }

    /** Whether key {@code k} puts NULLs first (whatever its direction). */
    public boolean nullsFirst(int k) {
        return nullsFirst[k];
    }

    /** Compares row {@code i} of key columns {@code a} with row {@code j} of key columns {@code b}. */
    public int compare(Col[] a, int i, Col[] b, int j) {
        for (int k = 0; k < ascending.length; k++) {
            int cmp = compareKey(k, a[k], i, b[k], j);
            if (cmp != 0) {
                return cmp;
            }
        }
        return 0;
    }

    /** Compares one key of two rows under key {@code k}'s direction and NULL placement. */
    public int compareKey(int k, Col a, int i, Col b, int j) {
        boolean an = a.isNull(i);
        boolean bn = b.isNull(j);
        if (an || bn) {
            if (an && bn) {
                return 0;
            }
            return an == nullsFirst[k] ? -1 : 1;
        }
        int cmp = compareValues(a, i, b, j);
        return ascending[k] ? cmp : -cmp;
    }

    /** Ascending comparison of two non-NULL values of compatible types. */
    public static int compareValues(Col a, int i, Col b, int j) {
        return switch (a.type.kind()) {
            case FLOAT64 -> compareDoubles(a.doubles[i], b.doubles[j]);
            case UTF8 -> a.strings[i].compareTo(b.strings[j]);
            case BOOL, NULL -> Boolean.compare(a.bools[i], b.bools[j]);
            default -> a.longs != null && b.longs != null ? Long.compare(a.longs[i], b.longs[j])
                    : Int128.compare(a.high(i), a.low(i), b.high(j), b.low(j));
        };
    }

    /** {@link Double#compare} with {@code -0.0 == 0.0}. */
    public static int compareDoubles(double x, double y) {
        return Double.compare(x == 0.0 ? 0.0 : x, y == 0.0 ? 0.0 : y);
    }

    /**
     * Row indexes {@code 0..rows-1} of key columns {@code keys} in this order (stable: rows with
     * equal keys keep their input order).
     *
     * <p>When the first key is numeric, its values are first mapped to longs whose signed order is
     * the key's order ({@link #normalizedKey}, direction included) and the rows are sorted by them
     * with a least-significant-digit radix sort, one pass per byte in which the values differ (a
     * BIGINT key below 2^24 takes three passes): no comparisons at all, and every pass streams
     * through contiguous arrays. Runs of rows tied on the first key are then ordered by the other
     * keys, through their normalized longs where those keys are numeric and NULL-free. Rows with a
     * NULL first key are sorted apart and placed first or last. Otherwise a stable merge sort with
     * comparisons.
     */
    public int[] sortedIndexes(Col[] keys, int rows) {
        return sortedIndexes(keys, rows, true);
    }

    /**
     * The same; with {@code radix} false, always the comparison merge sort, whose only memory
     * besides the returned index is one int per row ({@link #sortMemory}): the path for a sort
     * whose task cannot have the radix sort's scratch arrays.
     */
    public int[] sortedIndexes(Col[] keys, int rows, boolean radix) {
        Col first = keys[0];
        if (!radix || !isNumeric(first)) {
            int[] index = identity(rows);
            mergeSort(index, 0, rows, keys, null, null, new int[rows]);
            return index;
        }
        long[] norm = normalizedKey(first, ascending[0]);
        int[] index = new int[rows];
        int nonNull = 0;
        for (int i = 0; i < rows; i++) {
            if (!first.isNull(i)) {
                index[nonNull++] = i;
            }
        }
        int at = nonNull;
        for (int i = 0; i < rows && at < rows; i++) {
            if (first.isNull(i)) {
                index[at++] = i;
            }
        }
        if (nonNull < RADIX_MIN_ROWS) {
            mergeSort(index, 0, nonNull, keys, norm, null, new int[nonNull]);
        } else {
            long[] sortedNorm = radixSort(index, nonNull, norm);
            if (keys.length > 1) {
                sortTies(index, sortedNorm, nonNull, keys);
            }
        }
        mergeSort(index, nonNull, rows, keys, null, null, new int[rows - nonNull]);
        if (nullsFirst[0] && nonNull < rows) {
            int[] out = new int[rows];
            System.arraycopy(index, nonNull, out, 0, rows - nonNull);
            System.arraycopy(index, 0, out, rows - nonNull, nonNull);
            return out;
        }
        return index;
    }

    /**
     * Heap bytes {@link #sortedIndexes(Col[], int, boolean)} allocates for {@code rows} rows of
     * {@code keys}, the returned index included (an upper bound, so a caller can reserve it first).
     * The radix path holds per row the index (4 bytes), the normalized first key (8), its two radix
     * buffers (16), the index's radix buffer (4), merge scratch (4), the reordered index when NULLs
     * go first (4) and a normalized copy of each later numeric key (8 each): 40 bytes plus 8 per
     * later numeric key. The comparison sort holds the index and its merge scratch: 8 bytes.
     */
    public long sortMemory(Col[] keys, int rows, boolean radix) {
        if (!radix || !isNumeric(keys[0])) {
            return 8L * rows;
        }
        long perRow = 40;
        for (int k = 1; k < keys.length; k++) {
            if (isNumeric(keys[k])) {
                perRow += 8;
            }
        }
        return perRow * rows;
    }

    /** Below this many rows a merge sort beats the radix sort's fixed cost (its 8 x 256 counters). */
    private static final int RADIX_MIN_ROWS = 512;

    /** Keys with an order-preserving long form; a decimal in the wide form compares in 128 bits instead. */
    private static boolean isNumeric(Col c) {
        return (c.type.isLongBacked() && !c.isWide()) || c.type.kind() == io.sluice.common.types.DataType.Kind.FLOAT64;
    }

    /**
     * Stable LSD radix sort of {@code index[0, n)} by {@code norm[index[i]]} (signed order), a byte
     * at a time, skipping the bytes in which all values agree. Returns the sorted keys, parallel to
     * the sorted {@code index}.
     */
    private static long[] radixSort(int[] index, int n, long[] norm) {
        long[] key = new long[n];
        for (int i = 0; i < n; i++) {
            key[i] = norm[index[i]] ^ Long.MIN_VALUE; // unsigned byte order = signed value order
        }
        int[][] counts = new int[8][256];
        for (int i = 0; i < n; i++) {
            long k = key[i];
            for (int b = 0; b < 8; b++) {
                counts[b][(int) (k >>> (b << 3)) & 0xFF]++;
            }
        }
        long[] keyTo = null;
        int[] indexTo = null;
        int[] idx = index;
        for (int b = 0; b < 8; b++) {
            int[] count = counts[b];
            if (count[(int) (key[0] >>> (b << 3)) & 0xFF] == n) {
                continue; // every value has the same byte here
            }
            if (keyTo == null) {
                keyTo = new long[n];
                indexTo = new int[n];
            }
            int[] start = new int[256];
            int sum = 0;
            for (int d = 0; d < 256; d++) {
                start[d] = sum;
                sum += count[d];
            }
            int shift = b << 3;
            for (int i = 0; i < n; i++) {
                long k = key[i];
                int to = start[(int) (k >>> shift) & 0xFF]++;
                keyTo[to] = k;
                indexTo[to] = idx[i];
            }
            long[] tk = key;
            key = keyTo;
            keyTo = tk;
            int[] ti = idx;
            idx = indexTo;
            indexTo = ti;
        }
        if (idx != index) {
            System.arraycopy(idx, 0, index, 0, n);
        }
        return key;
    }

    /**
     * Orders each run of rows tied on the first key ({@code sortedKey} equal) by the other keys,
     * stably: insertion sort for short runs (the usual case), merge sort for long ones.
     */
    private void sortTies(int[] index, long[] sortedKey, int n, Col[] keys) {
        long[][] rest = new long[keys.length][];
        for (int k = 1; k < keys.length; k++) {
            if (isNumeric(keys[k]) && noNulls(keys[k])) {
                rest[k] = normalizedKey(keys[k], ascending[k]);
            }
        }
        int[] scratch = null;
        int runStart = 0;
        for (int i = 1; i <= n; i++) {
            if (i < n && sortedKey[i] == sortedKey[runStart]) {
                continue;
            }
            int len = i - runStart;
            if (len > 1) {
                if (len <= 16) {
                    for (int a = runStart + 1; a < i; a++) {
                        int row = index[a];
                        int b = a - 1;
                        while (b >= runStart && compareRest(keys, rest, index[b], row) > 0) {
                            index[b + 1] = index[b];
                            b--;
                        }
                        index[b + 1] = row;
                    }
                } else {
                    if (scratch == null || scratch.length < len) {
                        scratch = new int[len];
                    }
                    mergeSort(index, runStart, i, keys, null, rest, scratch);
                }
            }
            runStart = i;
        }
    }

    private static boolean noNulls(Col c) {
        if (c.nulls == null) {
            return true;
        }
        for (int i = 0; i < c.length; i++) {
            if (c.nulls[i]) {
                return false;
            }
        }
        return true;
    }

    /** Compares two rows tied on the first key by the other keys, through {@code rest} where normalized (if given). */
    private int compareRest(Col[] keys, long[][] rest, int a, int b) {
        for (int k = 1; k < keys.length; k++) {
            long[] r = rest == null ? null : rest[k];
            int cmp = r != null ? Long.compare(r[a], r[b]) : compareKey(k, keys[k], a, keys[k], b);
            if (cmp != 0) {
                return cmp;
            }
        }
        return 0;
    }

    private static int[] identity(int rows) {
        int[] index = new int[rows];
        for (int i = 0; i < rows; i++) {
            index[i] = i;
        }
        return index;
    }

    /**
     * A numeric (long-backed or FLOAT64) key as longs whose signed order is the key's order under
     * the given direction: doubles by their bits with the negative ones flipped ({@code -0.0} as
     * {@code 0.0}, NaN last), descending as the bitwise complement. Values of NULL rows are
     * meaningless; the caller places those rows.
     */
    public static long[] normalizedKey(Col c, boolean ascending) {
        return normalize(c, ascending);
    }

    /** The same for one value. */
    public static long normalizedDouble(double d) {
        double x = d == 0.0 ? 0.0 : d;
        long bits = Double.doubleToLongBits(x);
        return bits ^ ((bits >> 63) & Long.MAX_VALUE);
    }

    /** Longs in the key's order: signed order of the result is ascending (or descending) key order. */
    private static long[] normalize(Col c, boolean ascending) {
        int n = c.length;
        long[] out = new long[n];
        if (c.type.kind() == io.sluice.common.types.DataType.Kind.FLOAT64) {
            double[] d = c.doubles;
            for (int i = 0; i < n; i++) {
                out[i] = normalizedDouble(d[i]);
            }
        } else {
            System.arraycopy(c.longs, 0, out, 0, n);
        }
        if (!ascending) {
            for (int i = 0; i < n; i++) {
                out[i] = ~out[i];
            }
        }
        return out;
    }

    /**
     * Compares rows by the normalized first key ({@code norm}), then by the other keys (through
     * {@code rest} where normalized); by the other keys only when {@code norm} is null and
     * {@code rest} is not (rows tied on the first key); by all keys when both are null.
     */
    private int compareRows(Col[] keys, long[] norm, long[][] rest, int a, int b) {
        if (norm != null) {
            int cmp = Long.compare(norm[a], norm[b]);
            if (cmp != 0) {
                return cmp;
            }
        } else if (rest == null) {
            return compare(keys, a, keys, b);
        }
        return compareRest(keys, rest, a, b);
    }

    /** Stable bottom-up merge sort of {@code index[from, to)} by {@link #compareRows}; {@code scratch} holds {@code to - from}. */
    private void mergeSort(int[] index, int from, int to, Col[] keys, long[] norm, long[][] rest, int[] scratch) {
        int rows = to - from;
        for (int width = 1; width < rows; width *= 2) {
            for (int lo = from; lo < to - width; lo += 2 * width) {
                int mid = lo + width;
                int hi = Math.min(lo + 2 * width, to);
                if (compareRows(keys, norm, rest, index[mid - 1], index[mid]) <= 0) {
                    continue;
                }
                int i = lo;
                int j = mid;
                int k = 0;
                while (i < mid && j < hi) {
                    scratch[k++] = compareRows(keys, norm, rest, index[j], index[i]) < 0 ? index[j++] : index[i++];
                }
                while (i < mid) {
                    scratch[k++] = index[i++];
                }
                while (j < hi) {
                    scratch[k++] = index[j++];
                }
                System.arraycopy(scratch, 0, index, lo, hi - lo);
            }
        }
    }
}
