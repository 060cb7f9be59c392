package io.sluice.kernels;

import io.sluice.common.types.BinaryOp;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Comparisons that narrow a selection of rows in place: {@code selection[0, count)} holds row
 * positions in ascending order, and a kernel keeps those whose comparison is TRUE (a NULL operand
 * drops the row) and returns how many it kept. A filter's conjuncts applied one after another so
 * read only the rows the ones before kept, straight from the Arrow buffers ({@link InPlaceValues}),
 * and no boolean column is made per conjunct.
 *
 * <p>Each kernel takes exactly the shapes {@link InPlaceKernels#compare} takes, with the same
 * values (a decimal constant rescaled to the column's scale, doubles in {@link Double#compare}'s
 * order), and returns -1 for any other: the caller then evaluates the comparison as a column.
 */
public final class SelectionKernels {
    private SelectionKernels() {
    }

    /** Selects every row of a batch of {@code rows}: {@code selection[i] = i}. */
    public static int all(int[] selection, int rows) {
        for (int i = 0; i < rows; i++) {
            selection[i] = i;
        }
        return rows;
    }

    /**
     * Keeps the selected rows where {@code column op scalar} (or {@code scalar op column} when
     * {@code scalarOnLeft}) is TRUE; -1 for a shape not taken here.
     */
    public static int compare(BinaryOp op, InPlaceValues column, Col scalar, boolean scalarOnLeft, int[] selection,
            int count) {
        long[] b = InPlaceKernels.comparand(column, scalar);
        if (b == null) {
            return -1;
        }
        BinaryOp cmp = scalarOnLeft ? op.flip() : op;
        if (column.doubles) {
            return compareDoubles(cmp, column, Double.longBitsToDouble(b[0]), selection, count);
        }
        return compareLongs(cmp, column, b[0], selection, count);
    }

    /**
     * Keeps the selected rows where {@code l op r} is TRUE for two columns read in place: both
     * doubles, or both long-backed at one scale; -1 otherwise.
     */
    public static int compare(BinaryOp op, InPlaceValues l, InPlaceValues r, int[] selection, int count) {
        if (l.doubles != r.doubles || (!l.doubles && l.scale != r.scale) || l.rows != r.rows) {
            return -1;
        }
        if (op.kind() != BinaryOp.Kind.COMPARISON) {
            throw new IllegalArgumentException(op + " is not a comparison");
        }
        long lv = l.validity;
        long rv = r.validity;
        int kept = 0;
        if (l.doubles) {
            for (int k = 0; k < count; k++) {
                int row = selection[k];
                selection[kept] = row;
                boolean keep = Kernels.test(op, Double.compare(InPlaceValues.doubleAt(l.data, row),
                        InPlaceValues.doubleAt(r.data, row)));
                kept += keep && !InPlaceValues.isNull(lv, row) && !InPlaceValues.isNull(rv, row) ? 1 : 0;
            }
            return kept;
        }
        long a = l.data;
        long b = r.data;
        int as = l.shift;
        int bs = r.shift;
        for (int k = 0; k < count; k++) {
            int row = selection[k];
            selection[kept] = row;
            boolean keep = Kernels.test(op, Long.compare(InPlaceValues.longAt(a, as, row), InPlaceValues.longAt(b, bs, row)));
            kept += keep && !InPlaceValues.isNull(lv, row) && !InPlaceValues.isNull(rv, row) ? 1 : 0;
        }
        return kept;
    }

    /** Keeps the selected rows whose value in the boolean column {@code mask} is TRUE (not NULL). */
    public static int mask(Col mask, int[] selection, int count) {
        boolean[] values = mask.bools;
        boolean[] nulls = mask.nulls;
        int kept = 0;
        for (int k = 0; k < count; k++) {
            int row = selection[k];
            selection[kept] = row;
            kept += values[row] && (nulls == null || !nulls[row]) ? 1 : 0;
        }
        return kept;
    }

    /**
     * {@code value cmp b} as {@code low <= value <= high} (an ordering moved to inclusive bounds, an
     * equality as {@code low == high}), or its negation for NOT_EQ: one loop per stride, two
     * comparisons per row, no test of the operator per row.
     */
    private static int compareLongs(BinaryOp cmp, InPlaceValues column, long b, int[] selection, int count) {
        long low;
        long high;
        boolean negate = false;
        switch (cmp) {
            case EQ -> { low = b; high = b; }
            case NOT_EQ -> { low = b; high = b; negate = true; }
            case LT -> {
                if (b == Long.MIN_VALUE) {
                    return 0; // nothing is below the smallest long
                }
                low = Long.MIN_VALUE;
                high = b - 1;
            }
            case LT_EQ -> { low = Long.MIN_VALUE; high = b; }
            case GT -> {
                if (b == Long.MAX_VALUE) {
                    return 0; // nothing is above the largest long
                }
                low = b + 1;
                high = Long.MAX_VALUE;
            }
            case GT_EQ -> { low = b; high = Long.MAX_VALUE; }
            default -> throw new IllegalArgumentException(cmp + " is not a comparison");
        }
        long a = column.data;
        long validity = column.validity;
        int kept = 0;
        switch (column.shift) {
            case 2 -> {
                for (int k = 0; k < count; k++) {
                    int row = selection[k];
                    long v = MemoryUtil.getInt(a + 4L * row);
                    selection[kept] = row;
                    kept += ((v >= low && v <= high) != negate) && !InPlaceValues.isNull(validity, row) ? 1 : 0;
                }
            }
            case 3 -> {
                for (int k = 0; k < count; k++) {
                    int row = selection[k];
                    long v = MemoryUtil.getLong(a + 8L * row);
                    selection[kept] = row;
                    kept += ((v >= low && v <= high) != negate) && !InPlaceValues.isNull(validity, row) ? 1 : 0;
                }
            }
            default -> {
                for (int k = 0; k < count; k++) {
                    int row = selection[k];
                    long v = MemoryUtil.getLong(a + 16L * row);
                    selection[kept] = row;
                    kept += ((v >= low && v <= high) != negate) && !InPlaceValues.isNull(validity, row) ? 1 : 0;
                }
            }
        }
        return kept;
    }

    private static int compareDoubles(BinaryOp cmp, InPlaceValues column, double b, int[] selection, int count) {
        long a = column.data;
        long validity = column.validity;
        int kept = 0;
        for (int k = 0; k < count; k++) {
            int row = selection[k];
            selection[kept] = row;
            boolean keep = Kernels.test(cmp, Double.compare(InPlaceValues.doubleAt(a, row), b));
            kept += keep && !InPlaceValues.isNull(validity, row) ? 1 : 0;
        }
        return kept;
    }
}
