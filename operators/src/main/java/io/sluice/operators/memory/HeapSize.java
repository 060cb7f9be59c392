package io.sluice.operators.memory;

import io.sluice.kernels.Col;

/**
 * Estimated heap bytes of the structures operators keep, for their reservations: array headers and
 * elements with compressed references (the JVM's default under 32 GiB of heap), and a string as its
 * object, its byte array header and one byte per character (compact Latin-1 strings; others take
 * two, so a string of non-Latin text is undercounted by up to half its characters). Shared strings
 * (one Parquet dictionary value in many rows) are counted once per reference, an overcount.
 */
public final class HeapSize {
    /** Object header plus fields of a {@link Col}. */
    public static final long COL_OBJECT = 40;
    private static final long ARRAY_HEADER = 16;
    private static final long STRING_OBJECT = 24 + ARRAY_HEADER;

    private HeapSize() {
    }

    public static long longs(int n) {
        return ARRAY_HEADER + 8L * n;
    }

    public static long ints(int n) {
        return ARRAY_HEADER + 4L * n;
    }

    public static long booleans(int n) {
        return ARRAY_HEADER + n;
    }

    public static long references(int n) {
        return ARRAY_HEADER + 4L * n;
    }

    /** One string's own bytes (not the reference to it). */
    public static long string(String s) {
        return s == null ? 0 : STRING_OBJECT + ((s.length() + 7) & ~7);
    }

    /** The strings {@code values[from, to)} themselves. */
    public static long strings(String[] values, int from, int to) {
        long total = 0;
        for (int i = from; i < to; i++) {
            String s = values[i];
            if (s != null) {
                total += STRING_OBJECT + ((s.length() + 7) & ~7);
            }
        }
        return total;
    }

    /** A column with its arrays and strings. */
    public static long of(Col c) {
        long bytes = COL_OBJECT + (c.nulls == null ? 0 : booleans(c.nulls.length));
        if (c.longs != null) {
            bytes += longs(c.longs.length);
        }
        if (c.doubles != null) {
            bytes += longs(c.doubles.length);
        }
        if (c.lows != null) {
            bytes += 2 * longs(c.lows.length);
        }
        if (c.bools != null) {
            bytes += booleans(c.bools.length);
        }
        if (c.strings != null) {
            bytes += references(c.strings.length) + strings(c.strings, 0, c.strings.length);
        }
        return bytes;
    }

    /** Columns of one batch or chunk. */
    public static long of(Col[] columns) {
        long bytes = references(columns.length);
        for (Col c : columns) {
            bytes += of(c);
        }
        return bytes;
    }
}
