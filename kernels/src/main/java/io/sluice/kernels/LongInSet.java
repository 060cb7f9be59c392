package io.sluice.kernels;

import java.util.Arrays;

/**
 * The constants of an IN list over long-backed values (integers, dates, timestamps, decimals of up
 * to 18 digits as unscaled longs at the column's scale), made once per bound expression, and the
 * loops that narrow a selection by membership. A value outside {@code [min, max]} is rejected by
 * two comparisons; inside, a set whose range spans fewer than {@value #BITMAP_RANGE} values is a
 * bitmap (q16's {@code p_size IN (49, 14, 23, ...)}: one word read per row), any other an
 * open-addressing table at most half full. No boxing, and no call per row that the JIT cannot inline.
 */
public final class LongInSet {
    static final int BITMAP_RANGE = 1 << 16;

    private final long min;
    private final long max;
    private final long[] bitmap;
    private final long[] slots;
    private final long empty;
    private final int mask;

    private LongInSet(long min, long max, long[] bitmap, long[] slots, long empty) {
        this.min = min;
        this.max = max;
        this.bitmap = bitmap;
        this.slots = slots;
        this.empty = empty;
        this.mask = slots == null ? 0 : slots.length - 1;
    }

    /** The set of {@code values} (at least one; duplicates allowed). */
    public static LongInSet of(long[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("an IN set needs at least one value");
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        long min = sorted[0];
        long max = sorted[sorted.length - 1];
        // the range as an unsigned difference: no overflow for any min and max
        if (Long.compareUnsigned(max - min, BITMAP_RANGE) < 0) {
            long[] bitmap = new long[(int) ((max - min) >>> 6) + 1];
            for (long v : sorted) {
                long d = v - min;
                bitmap[(int) (d >>> 6)] |= 1L << d;
            }
            return new LongInSet(min, max, bitmap, null, 0);
        }
        long empty = absentValue(sorted);
        int capacity = Integer.highestOneBit(Math.max(2, sorted.length) * 2 - 1) << 1;
        long[] slots = new long[capacity];
        Arrays.fill(slots, empty);
        LongInSet set = new LongInSet(min, max, null, slots, empty);
        for (long v : sorted) {
            int i = set.slot(v);
            while (slots[i] != empty && slots[i] != v) {
                i = (i + 1) & set.mask;
            }
            slots[i] = v;
        }
        return set;
    }

    /** A value not in {@code sorted} (ascending), to mark empty slots: one exists, the set being finite. */
    private static long absentValue(long[] sorted) {
        long candidate = Long.MIN_VALUE;
        for (long v : sorted) {
            if (v < candidate) {
                continue; // a repeated item, already passed
            }
            if (v != candidate) {
                return candidate;
            }
            candidate++;
        }
        return candidate;
    }

    private int slot(long v) {
        long h = v * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    public boolean contains(long v) {
        if (v < min || v > max) {
            return false;
        }
        if (bitmap != null) {
            long d = v - min;
            return (bitmap[(int) (d >>> 6)] & (1L << d)) != 0;
        }
        for (int i = slot(v);; i = (i + 1) & mask) {
            long s = slots[i];
            if (s == empty) {
                return false; // first: the marker itself, inside [min, max], is no member
            }
            if (s == v) {
                return true;
            }
        }
    }

    /**
     * Keeps the selected rows of a column read in place whose value is not NULL and is in the set
     * ({@code != negated}: not in it); returns how many.
     */
    public int select(InPlaceValues column, boolean negated, int[] selection, int count) {
        long data = column.data;
        int shift = column.shift;
        long validity = column.validity;
        int kept = 0;
        for (int k = 0; k < count; k++) {
            int row = selection[k];
            boolean in = contains(InPlaceValues.longAt(data, shift, row));
            selection[kept] = row;
            kept += in != negated && !InPlaceValues.isNull(validity, row) ? 1 : 0;
        }
        return kept;
    }

    /** As {@link #select(InPlaceValues, boolean, int[], int)} over heap values ({@code nulls} may be null). */
    public int select(long[] values, boolean[] nulls, boolean negated, int[] selection, int count) {
        int kept = 0;
        for (int k = 0; k < count; k++) {
            int row = selection[k];
            selection[kept] = row;
            kept += contains(values[row]) != negated && (nulls == null || !nulls[row]) ? 1 : 0;
        }
        return kept;
    }
}
