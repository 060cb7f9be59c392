package io.sluice.kernels;

import io.sluice.common.types.BinaryOp;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.VarCharVector;

/**
 * Comparisons that narrow a selection of rows in place: {@code selection[0, count)} holds row
 * positions in ascending order, and a kernel keeps those whose comparison is TRUE (a NULL operand
 * drops the row) and returns how many it kept. A filter's conjuncts applied one after another so
 * read only the rows the ones before kept, straight from the Arrow buffers ({@link InPlaceValues}),
 * and no boolean column is made per conjunct.
 *
 * <p>The numeric kernels take a column read in place against a constant (a decimal constant
 * rescaled to the column's scale, doubles in {@link Double#compare}'s order) or two such columns,
 * and return -1 for any other shape: the caller then evaluates the comparison as a column. The
 * string kernels read the UTF-8 bytes of a {@link VarCharVector}. These are the only comparison
 * loops over Arrow buffers: the boolean column forms ({@link InPlaceKernels#compare},
 * {@link ArrowKernels#compareConstant}, {@link ArrowKernels#like}) select every row with them and
 * turn the selection into a column ({@link #toBools}).
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
        long comparand = column.doubles ? sortable(Double.longBitsToDouble(b[0])) : b[0];
        return compareLongs(cmp, column, comparand, selection, count);
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
        int accepted = acceptedOrders(op);
        int kept = 0;
        if (l.doubles) {
            for (int k = 0; k < count; k++) {
                int row = selection[k];
                selection[kept] = row;
                int order = order(sortable(InPlaceValues.doubleAt(l.data, row)), sortable(InPlaceValues.doubleAt(r.data, row)));
                kept += (accepted >>> order) & InPlaceValues.valid(lv, row) & InPlaceValues.valid(rv, row);
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
            int order = order(InPlaceValues.longAt(a, as, row), InPlaceValues.longAt(b, bs, row));
            kept += (accepted >>> order) & InPlaceValues.valid(lv, row) & InPlaceValues.valid(rv, row);
        }
        return kept;
    }

    /**
     * The orders comparison {@code op} accepts as bits, for a test without a branch per row: bit 0
     * for less, 1 for equal, 2 for greater, so {@code accepted >>> order(a, b) & 1} is whether
     * {@code a op b} holds.
     */
    private static int acceptedOrders(BinaryOp op) {
        return switch (op) {
            case EQ -> 0b010;
            case NOT_EQ -> 0b101;
            case LT -> 0b001;
            case LT_EQ -> 0b011;
            case GT -> 0b100;
            case GT_EQ -> 0b110;
            default -> throw new IllegalArgumentException(op + " is not a comparison");
        };
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
     * Keeps the selected rows whose value in the boolean column {@code mask} is TRUE (not NULL),
     * where {@code mask} holds one value per selected row (row {@code k} for {@code selection[k]}):
     * a predicate evaluated over the selected rows gathered.
     */
    public static int maskSelected(Col mask, int[] selection, int count) {
        boolean[] values = mask.bools;
        boolean[] nulls = mask.nulls;
        int kept = 0;
        for (int k = 0; k < count; k++) {
            selection[kept] = selection[k];
            kept += values[k] && (nulls == null || !nulls[k]) ? 1 : 0;
        }
        return kept;
    }

    /**
     * Keeps the selected rows where {@code value cmp constant} on the UTF-8 bytes of a string
     * vector, compared as unsigned bytes (no string decoded): equality of bytes is equality of
     * strings; the byte order is {@link String#compareTo}'s only for constants
     * {@link ArrowKernels#bytesOrderLikeStrings} accepts, so callers pass an ordering only then.
     */
    public static int compare(BinaryOp cmp, VarCharVector v, byte[] constant, int[] selection, int count) {
        if (count == 0) {
            return 0;
        }
        long offsets = v.getOffsetBuffer().memoryAddress();
        long data = v.getDataBuffer().memoryAddress();
        long validity = v.getNullCount() == 0 ? 0 : v.getValidityBuffer().memoryAddress();
        int kept = 0;
        if (cmp == BinaryOp.EQ || cmp == BinaryOp.NOT_EQ) {
            boolean keepEqual = cmp == BinaryOp.EQ;
            int k = constant.length;
            long[] words = words(constant);
            for (int i = 0; i < count; i++) {
                int row = selection[i];
                long at = offsets + 4L * row;
                int start = MemoryUtil.getInt(at);
                boolean equal = MemoryUtil.getInt(at + 4) - start == k && equalBytes(data + start, constant, words);
                selection[kept] = row;
                kept += equal == keepEqual && !InPlaceValues.isNull(validity, row) ? 1 : 0;
            }
            return kept;
        }
        if (cmp.kind() != BinaryOp.Kind.COMPARISON) {
            throw new IllegalArgumentException(cmp + " is not a comparison");
        }
        for (int i = 0; i < count; i++) {
            int row = selection[i];
            long at = offsets + 4L * row;
            int start = MemoryUtil.getInt(at);
            int c = compareBytes(data + start, MemoryUtil.getInt(at + 4) - start, constant);
            selection[kept] = row;
            kept += Kernels.test(cmp, c) && !InPlaceValues.isNull(validity, row) ? 1 : 0;
        }
        return kept;
    }

    /** Keeps the selected rows of a string vector that match {@code pattern} ({@code != negated}); NULL drops. */
    public static int like(VarCharVector v, ArrowKernels.BytePattern pattern, boolean negated, int[] selection, int count) {
        if (count == 0) {
            return 0;
        }
        long offsets = v.getOffsetBuffer().memoryAddress();
        long data = v.getDataBuffer().memoryAddress();
        long validity = v.getNullCount() == 0 ? 0 : v.getValidityBuffer().memoryAddress();
        int kept = 0;
        for (int i = 0; i < count; i++) {
            int row = selection[i];
            long at = offsets + 4L * row;
            int start = MemoryUtil.getInt(at);
            boolean match = pattern.matches(data + start, MemoryUtil.getInt(at + 4) - start);
            selection[kept] = row;
            kept += match != negated && !InPlaceValues.isNull(validity, row) ? 1 : 0;
        }
        return kept;
    }

    /**
     * The selected rows as a boolean column of {@code rows} rows: TRUE where selected, FALSE
     * elsewhere, NULL where {@code nulls} says (a kernel's NULL rows are never selected).
     */
    public static Col toBools(int[] selection, int count, int rows, boolean[] nulls) {
        boolean[] out = new boolean[rows];
        for (int i = 0; i < count; i++) {
            out[selection[i]] = true;
        }
        return Col.ofBools(out, nulls);
    }

    /**
     * The rows of {@code all[0, allCount)} not in {@code subset[0, subsetCount)} (both ascending,
     * {@code subset} drawn from {@code all}) into {@code out}, ascending; returns how many.
     */
    public static int difference(int[] all, int allCount, int[] subset, int subsetCount, int[] out) {
        int n = 0;
        int j = 0;
        for (int i = 0; i < allCount; i++) {
            int row = all[i];
            if (j < subsetCount && subset[j] == row) {
                j++;
            } else {
                out[n++] = row;
            }
        }
        return n;
    }

    /** The rows in both ascending lists {@code a[0, aCount)} and {@code b[0, bCount)}, into {@code a}; returns how many. */
    public static int intersect(int[] a, int aCount, int[] b, int bCount) {
        int out = 0;
        int j = 0;
        for (int i = 0; i < aCount && j < bCount; i++) {
            while (j < bCount && b[j] < a[i]) {
                j++;
            }
            if (j < bCount && b[j] == a[i]) {
                a[out++] = a[i];
            }
        }
        return out;
    }

    /** The union of two disjoint ascending row lists into {@code out}, ascending; returns how many. */
    public static int union(int[] a, int aCount, int[] b, int bCount, int[] out) {
        int i = 0;
        int j = 0;
        int n = 0;
        while (i < aCount && j < bCount) {
            out[n++] = a[i] < b[j] ? a[i++] : b[j++];
        }
        while (i < aCount) {
            out[n++] = a[i++];
        }
        while (j < bCount) {
            out[n++] = b[j++];
        }
        return n;
    }

    /** The constant's bytes as little-endian words (the last one zero-padded), to compare 8 bytes at a time. */
    private static long[] words(byte[] constant) {
        long[] out = new long[constant.length >> 3];
        for (int w = 0; w < out.length; w++) {
            long word = 0;
            for (int b = 7; b >= 0; b--) {
                word = (word << 8) | (constant[8 * w + b] & 0xffL);
            }
            out[w] = word;
        }
        return out;
    }

    /** Whether {@code constant.length} bytes at {@code address} equal the constant (its whole words first). */
    private static boolean equalBytes(long address, byte[] constant, long[] words) {
        for (int w = 0; w < words.length; w++) {
            if (MemoryUtil.getLong(address + 8L * w) != words[w]) {
                return false;
            }
        }
        for (int j = words.length << 3; j < constant.length; j++) {
            if (MemoryUtil.getByte(address + j) != constant[j]) {
                return false;
            }
        }
        return true;
    }

    /** Unsigned lexicographic comparison of {@code length} bytes at an address with {@code constant}. */
    private static int compareBytes(long address, int length, byte[] constant) {
        int common = Math.min(length, constant.length);
        for (int j = 0; j < common; j++) {
            int a = MemoryUtil.getByte(address + j) & 0xff;
            int b = constant[j] & 0xff;
            if (a != b) {
                return a - b;
            }
        }
        return length - constant.length;
    }

    /**
     * {@code value cmp b} as {@code low <= value <= high} (an ordering moved to inclusive bounds, an
     * equality as {@code low == high}), or its negation for NOT_EQ: one loop per stride, two
     * comparisons per row, no test of the operator per row.
     */
    private static int compareLongs(BinaryOp cmp, InPlaceValues column, long b, int[] selection, int count) {
        // for a column of doubles, b is the constant's sortable long: v cmp c exactly when sortable(v) cmp sortable(c)
        if (cmp == BinaryOp.NOT_EQ) {
            return inRange(column, b, b, true, selection, count);
        }
        long[] bounds = {Long.MIN_VALUE, Long.MAX_VALUE};
        return narrowBounds(cmp, b, bounds) ? inRange(column, bounds[0], bounds[1], false, selection, count) : 0;
    }

    /**
     * Narrows the inclusive {@code bounds} (low, high) by {@code value cmp b}; false when no long
     * passes it ({@code < Long.MIN_VALUE}, {@code > Long.MAX_VALUE}). Not for NOT_EQ, which is no range.
     */
    private static boolean narrowBounds(BinaryOp cmp, long b, long[] bounds) {
        switch (cmp) {
            case EQ -> {
                bounds[0] = Math.max(bounds[0], b);
                bounds[1] = Math.min(bounds[1], b);
            }
            case LT -> {
                if (b == Long.MIN_VALUE) {
                    return false;
                }
                bounds[1] = Math.min(bounds[1], b - 1);
            }
            case LT_EQ -> bounds[1] = Math.min(bounds[1], b);
            case GT -> {
                if (b == Long.MAX_VALUE) {
                    return false;
                }
                bounds[0] = Math.max(bounds[0], b + 1);
            }
            case GT_EQ -> bounds[0] = Math.max(bounds[0], b);
            default -> throw new IllegalArgumentException(cmp + " is not a comparison");
        }
        return true;
    }

    /**
     * Keeps the selected rows where both {@code column op scalar} comparisons are TRUE, in one pass
     * over the selection ({@code d >= '1994-01-01' AND d < '1995-01-01'}); each {@code scalarOnLeft}
     * flag as in {@link #compare}. -1 for a shape not taken here (doubles, NOT_EQ, a scalar the
     * in-place comparisons do not take): the caller then narrows by each in turn.
     */
    public static int between(InPlaceValues column, BinaryOp op1, Col scalar1, boolean scalar1OnLeft, BinaryOp op2,
            Col scalar2, boolean scalar2OnLeft, int[] selection, int count) {
        if (column.doubles) {
            return -1;
        }
        BinaryOp cmp1 = scalar1OnLeft ? op1.flip() : op1;
        BinaryOp cmp2 = scalar2OnLeft ? op2.flip() : op2;
        if (cmp1.kind() != BinaryOp.Kind.COMPARISON || cmp2.kind() != BinaryOp.Kind.COMPARISON
                || cmp1 == BinaryOp.NOT_EQ || cmp2 == BinaryOp.NOT_EQ) {
            return -1;
        }
        long[] b1 = InPlaceKernels.comparand(column, scalar1);
        long[] b2 = b1 == null ? null : InPlaceKernels.comparand(column, scalar2);
        if (b2 == null) {
            return -1;
        }
        long[] bounds = {Long.MIN_VALUE, Long.MAX_VALUE};
        if (!narrowBounds(cmp1, b1[0], bounds) || !narrowBounds(cmp2, b2[0], bounds) || bounds[0] > bounds[1]) {
            return 0;
        }
        return inRange(column, bounds[0], bounds[1], false, selection, count);
    }

    /**
     * Keeps the selected non-NULL rows whose value lies in [low, high] (outside it when {@code negate}).
     * No branch per row: whether a row passes is data, not a pattern a predictor learns, so each
     * row adds its 0 or 1 to the count. {@code v} is in [low, high] exactly when {@code v - low},
     * taken as unsigned, is at most {@code high - low} (one comparison; wrap-around included, as
     * long as low <= high). Vectors without NULLs, the usual case, have a loop per width; doubles are
     * read as {@link #sortable} longs, so {@code low} and {@code high} are sortable too.
     */
    private static int inRange(InPlaceValues column, long low, long high, boolean negate, int[] selection, int count) {
        if (low > high) {
            // no value lies in an empty range: all non-NULL rows are outside it
            return negate ? inRange(column, Long.MIN_VALUE, Long.MAX_VALUE, false, selection, count) : 0;
        }
        long a = column.data;
        long validity = column.validity;
        long span = high - low;
        int outside = negate ? 1 : 0;
        int kept = 0;
        if (column.doubles) {
            for (int k = 0; k < count; k++) {
                int row = selection[k];
                selection[kept] = row;
                kept += (within(sortable(InPlaceValues.doubleAt(a, row)) - low, span) ^ outside)
                        & InPlaceValues.valid(validity, row);
            }
            return kept;
        }
        if (validity != 0) {
            int shift = column.shift;
            for (int k = 0; k < count; k++) {
                int row = selection[k];
                long v = InPlaceValues.longAt(a, shift, row);
                selection[kept] = row;
                kept += (within(v - low, span) ^ outside) & InPlaceValues.valid(validity, row);
            }
            return kept;
        }
        switch (column.shift) {
            case 2 -> {
                for (int k = 0; k < count; k++) {
                    int row = selection[k];
                    long v = MemoryUtil.getInt(a + 4L * row);
                    selection[kept] = row;
                    kept += within(v - low, span) ^ outside;
                }
            }
            case 3 -> {
                for (int k = 0; k < count; k++) {
                    int row = selection[k];
                    long v = MemoryUtil.getLong(a + 8L * row);
                    selection[kept] = row;
                    kept += within(v - low, span) ^ outside;
                }
            }
            default -> {
                for (int k = 0; k < count; k++) {
                    int row = selection[k];
                    long v = MemoryUtil.getLong(a + 16L * row);
                    selection[kept] = row;
                    kept += within(v - low, span) ^ outside;
                }
            }
        }
        return kept;
    }

    /**
     * 1 when {@code d <= span} as unsigned longs, else 0, in arithmetic alone: {@code span < d}
     * (unsigned) is the borrow out of {@code span - d} (Hacker's Delight, 2-12). A conditional
     * expression here is compiled to a branch or a conditional move at the compiler's choice, from
     * the rows it has seen; this is neither.
     */
    private static int within(long d, long span) {
        return 1 - (int) (((~span & d) | (~(span ^ d) & (span - d))) >>> 63);
    }

    /** 0, 1 or 2 as {@code a} is less than, equal to or greater than {@code b}, in arithmetic alone (as {@link #within}). */
    private static int order(long a, long b) {
        return 1 + less(b, a) - less(a, b);
    }

    /** 1 when {@code a < b} (signed), else 0: the sign of {@code a - b}, corrected where it overflows (Hacker's Delight, 2-12). */
    private static int less(long a, long b) {
        long difference = a - b;
        return (int) ((difference ^ ((a ^ b) & (difference ^ a))) >>> 63);
    }

    /**
     * {@code d} as a long that orders as {@link Double#compare} orders doubles: -0.0 below 0.0, every
     * NaN (made the canonical one) above positive infinity and equal to the others. A negative
     * double's bits grow with its magnitude, so all but the sign bit are flipped.
     */
    private static long sortable(double d) {
        long bits = Double.doubleToLongBits(d);
        return bits ^ (bits >> 63 & Long.MAX_VALUE);
    }
}
