package io.sluice.plan.exec;

import io.sluice.plan.expr.SortKey;
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
            default -> Long.compare(a.longs[i], b.longs[j]);
        };
    }

    /** {@link Double#compare} with {@code -0.0 == 0.0}. */
    public static int compareDoubles(double x, double y) {
        return Double.compare(x == 0.0 ? 0.0 : x, y == 0.0 ? 0.0 : y);
    }

    /**
     * Row indexes {@code 0..rows-1} of key columns {@code keys} in this order (a stable merge sort).
     * When the first key is numeric, its values are first mapped to longs whose signed order is the
     * key's order (direction included), so most comparisons are one primitive compare; rows with a
     * NULL first key are sorted apart and placed first or last.
     */
    public int[] sortedIndexes(Col[] keys, int rows) {
        Col first = keys[0];
        boolean numeric = first.type.isLongBacked() || first.type.kind() == io.sluice.plan.types.DataType.Kind.FLOAT64;
        if (!numeric) {
            int[] index = identity(rows);
            mergeSort(index, 0, rows, keys, null);
            return index;
        }
        long[] norm = normalize(first, ascending[0]);
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
        mergeSort(index, 0, nonNull, keys, norm);
        mergeSort(index, nonNull, rows, keys, null);
        if (nullsFirst[0] && nonNull < rows) {
            int[] out = new int[rows];
            System.arraycopy(index, nonNull, out, 0, rows - nonNull);
            System.arraycopy(index, 0, out, rows - nonNull, nonNull);
            return out;
        }
        return index;
    }

    private static int[] identity(int rows) {
        int[] index = new int[rows];
        for (int i = 0; i < rows; i++) {
            index[i] = i;
        }
        return index;
    }

    /** Longs in the key's order: signed order of the result is ascending (or descending) key order. */
    private static long[] normalize(Col c, boolean ascending) {
        int n = c.length;
        long[] out = new long[n];
        if (c.type.kind() == io.sluice.plan.types.DataType.Kind.FLOAT64) {
            double[] d = c.doubles;
            for (int i = 0; i < n; i++) {
                double x = d[i] == 0.0 ? 0.0 : d[i];
                long bits = Double.doubleToLongBits(x);
                out[i] = bits ^ ((bits >> 63) & Long.MAX_VALUE);
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

    /** Compares rows by the normalized first key, then the other keys; all keys when {@code norm} is null. */
    private int compareRows(Col[] keys, long[] norm, int a, int b) {
        if (norm == null) {
            return compare(keys, a, keys, b);
        }
        int cmp = Long.compare(norm[a], norm[b]);
        for (int k = 1; cmp == 0 && k < ascending.length; k++) {
            cmp = compareKey(k, keys[k], a, keys[k], b);
        }
        return cmp;
    }

    /** Stable bottom-up merge sort of {@code index[from, to)}. */
    private void mergeSort(int[] index, int from, int to, Col[] keys, long[] norm) {
        int rows = to - from;
        if (rows < 2) {
            return;
        }
        int[] scratch = new int[to];
        for (int width = 1; width < rows; width *= 2) {
            for (int lo = from; lo < to - width; lo += 2 * width) {
                int mid = lo + width;
                int hi = Math.min(lo + 2 * width, to);
                if (compareRows(keys, norm, index[mid - 1], index[mid]) <= 0) {
                    continue;
                }
                int i = lo;
                int j = mid;
                int k = lo;
                while (i < mid && j < hi) {
                    scratch[k++] = compareRows(keys, norm, index[j], index[i]) < 0 ? index[j++] : index[i++];
                }
                while (i < mid) {
                    scratch[k++] = index[i++];
                }
                while (j < hi) {
                    scratch[k++] = index[j++];
                }
                System.arraycopy(scratch, lo, index, lo, hi - lo);
            }
        }
    }
}
