package io.sluice.plan.operators;

import io.sluice.plan.exec.Col;
import io.sluice.plan.expr.SortKey;
import java.util.List;

/** Compares rows of a set of key columns under ORDER BY rules, and sorts row indexes with it. */
final class RowComparator {
    private final Col[] keys;
    private final boolean[] ascending;
    private final boolean[] nullsFirst;

    RowComparator(Col[] keys, List<SortKey> order) {
        this.keys = keys;
        this.ascending = new boolean[keys.length];
        this.nullsFirst = new boolean[keys.length];
        for (int i = 0; i < keys.length; i++) {
            ascending[i] = order.get(i).ascending();
            nullsFirst[i] = order.get(i).nullsFirst();
        }
    }

    int compare(int a, int b) {
        for (int k = 0; k < keys.length; k++) {
            Col c = keys[k];
            boolean an = c.isNull(a);
            boolean bn = c.isNull(b);
            int cmp;
            if (an || bn) {
                if (an && bn) {
                    continue;
                }
                // NULL placement is independent of direction.
                return an == nullsFirst[k] ? -1 : 1;
            }
            cmp = switch (c.type.kind()) {
                case FLOAT64 -> Double.compare(c.doubles[a], c.doubles[b]);
                case UTF8 -> c.strings[a].compareTo(c.strings[b]);
                case BOOL, NULL -> Boolean.compare(c.bools[a], c.bools[b]);
                default -> Long.compare(c.longs[a], c.longs[b]);
            };
            if (cmp != 0) {
                return ascending[k] ? cmp : -cmp;
            }
        }
        return 0;
    }

    /** Row indexes {@code 0..rows-1} in order (a stable merge sort). */
    int[] sortedIndexes(int rows) {
        int[] index = new int[rows];
        for (int i = 0; i < rows; i++) {
            index[i] = i;
        }
        int[] scratch = new int[rows];
        for (int width = 1; width < rows; width *= 2) {
            for (int lo = 0; lo < rows - width; lo += 2 * width) {
                int mid = lo + width;
                int hi = Math.min(lo + 2 * width, rows);
                if (compare(index[mid - 1], index[mid]) <= 0) {
                    continue;
                }
                int i = lo;
                int j = mid;
                int k = lo;
                while (i < mid && j < hi) {
                    scratch[k++] = compare(index[j], index[i]) < 0 ? index[j++] : index[i++];
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
        return index;
    }
}
