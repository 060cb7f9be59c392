package io.sluice.operators.aggregate;

import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.kernels.InPlaceValues;
import io.sluice.kernels.Int128;
import io.sluice.operators.memory.HeapSize;
import java.util.Arrays;
import java.util.List;

/** min and max over any comparable type; the state is the running extreme. */
final class MinMaxAccumulator extends Accumulator {
    private final DataType type;
    private final boolean min;
    private static final long TYPICAL_STRING = 64;
    private boolean[] seen = new boolean[0];
    private long[] longs;
    private double[] doubles;
    private String[] strings;
    private boolean[] bools;
    /** High words of a decimal of precision 19 to 38 (the low words in {@code longs}). */
    private long[] highs;

    MinMaxAccumulator(DataType type, boolean min) {
        this.type = type;
        this.min = min;
        switch (type.kind()) {
            case FLOAT64 -> doubles = new double[0];
            case UTF8 -> strings = new String[0];
            case BOOL, NULL -> bools = new boolean[0];
            default -> longs = new long[0];
        }
        if (type.isWideDecimal()) {
            highs = new long[0];
        }
    }

    @Override
    void update(int[] groups, int rows, Col arg) {
        if (arg.type.kind() == Kind.NULL) {
            return;
        }
        boolean[] nulls = arg.nulls;
        switch (type.kind()) {
            case FLOAT64 -> {
                double[] v = arg.doubles;
                for (int i = 0; i < rows; i++) {
                    if (nulls == null || !nulls[i]) {
                        int g = groups[i];
                        if (!seen[g] || (min ? Double.compare(v[i], doubles[g]) < 0 : Double.compare(v[i], doubles[g]) > 0)) {
                            doubles[g] = v[i];
                            seen[g] = true;
                        }
                    }
                }
            }
            case UTF8 -> {
                String[] v = arg.strings;
                for (int i = 0; i < rows; i++) {
                    if (nulls == null || !nulls[i]) {
                        int g = groups[i];
                        if (!seen[g] || (min ? v[i].compareTo(strings[g]) < 0 : v[i].compareTo(strings[g]) > 0)) {
                            strings[g] = v[i];
                            seen[g] = true;
                        }
                    }
                }
            }
            case BOOL -> {
                boolean[] v = arg.bools;
                for (int i = 0; i < rows; i++) {
                    if (nulls == null || !nulls[i]) {
                        int g = groups[i];
                        if (!seen[g] || (min ? !v[i] && bools[g] : v[i] && !bools[g])) {
                            bools[g] = v[i];
                            seen[g] = true;
                        }
                    }
                }
            }
            default -> {
                if (highs != null) {
                    updateWide(groups, rows, arg);
                    return;
                }
                long[] v = arg.longs;
                for (int i = 0; i < rows; i++) {
                    if (nulls == null || !nulls[i]) {
                        int g = groups[i];
                        if (!seen[g] || (min ? v[i] < longs[g] : v[i] > longs[g])) {
                            longs[g] = v[i];
                            seen[g] = true;
                        }
                    }
                }
            }
        }
    }

    /**
     * Doubles, or long-backed values of at most 18 digits (same type as the state: one scale).
     * Max over doubles and min and max over longs select without a branch, from states that
     * start at the identity ({@link #ensureCapacity}): a branch for a group's first value, or
     * for a new extreme, is taken almost only in a table's first batches, which run before
     * the JIT profiles, so it would be compiled as never taken and deoptimize the loop at the
     * next table. ({@code Math.max} over doubles orders as {@code Double.compare} does: NaN
     * above all, -0.0 below 0.0; {@code Math.min} does not, NaN being its least, so min over
     * doubles keeps the comparison.)
     */
    @Override
    boolean updateInPlace(int[] groups, int rows, InPlaceValues arg) {
        long data = arg.data;
        long validity = arg.validity;
        boolean[] seen = this.seen;
        if (doubles != null && arg.doubles) {
            double[] doubles = this.doubles;
            if (!min) {
                for (int i = 0; i < rows; i++) {
                    if (!InPlaceValues.isNull(validity, i)) {
                        int g = groups[i];
                        doubles[g] = Math.max(doubles[g], InPlaceValues.doubleAt(data, i));
                        seen[g] = true;
                    }
                }
                return true;
            }
            for (int i = 0; i < rows; i++) {
                if (!InPlaceValues.isNull(validity, i)) {
                    int g = groups[i];
                    double v = InPlaceValues.doubleAt(data, i);
                    if (!seen[g] || Double.compare(v, doubles[g]) < 0) {
                        doubles[g] = v;
                        seen[g] = true;
                    }
                }
            }
            return true;
        }
        if (longs == null || highs != null || arg.doubles) {
            return false;
        }
        long[] longs = this.longs;
        int shift = arg.shift;
        long flip = min ? 0 : -1; // max: the order reversed, by taking v when current < v
        for (int i = 0; i < rows; i++) {
            if (!InPlaceValues.isNull(validity, i)) {
                int g = groups[i];
                long v = InPlaceValues.longAt(data, shift, i);
                long current = longs[g];
                long x = v ^ ((v ^ current) & flip); // min: v, max: current
                long y = current ^ ((v ^ current) & flip); // min: current, max: v
                long d = x - y;
                long take = (d ^ ((x ^ y) & (d ^ x))) >> 63; // all ones when x < y (Hacker's Delight 2-12)
                longs[g] = current ^ ((current ^ v) & take);
                seen[g] = true;
            }
        }
        return true;
    }

    private void updateWide(int[] groups, int rows, Col arg) {
        boolean[] nulls = arg.nulls;
        for (int i = 0; i < rows; i++) {
            if (nulls == null || !nulls[i]) {
                int g = groups[i];
                long h = arg.high(i);
                long l = arg.low(i);
                int cmp = seen[g] ? Int128.compare(h, l, highs[g], longs[g]) : 0;
                if (!seen[g] || (min ? cmp < 0 : cmp > 0)) {
                    highs[g] = h;
                    longs[g] = l;
                    seen[g] = true;
                }
            }
        }
    }

    @Override
    boolean mergeInPlace(int[] groups, int rows, InPlaceValues[] states) {
        return updateInPlace(groups, rows, states[0]);
    }

    @Override
    void merge(int[] groups, int rows, Col[] states) {
        update(groups, rows, states[0]);
    }

    @Override
    void ensureCapacity(int groups) {
        if (seen.length < groups) {
            int from = seen.length;
            int size = grow(seen.length, groups);
            seen = Arrays.copyOf(seen, size);
            if (longs != null) longs = Arrays.copyOf(longs, size);
            if (highs != null) highs = Arrays.copyOf(highs, size);
            if (doubles != null) doubles = Arrays.copyOf(doubles, size);
            if (strings != null) strings = Arrays.copyOf(strings, size);
            if (bools != null) bools = Arrays.copyOf(bools, size);
            // a group's state starts at the identity of the in-place path's branch-free select
            if (highs == null && longs != null) {
                Arrays.fill(longs, from, size, min ? Long.MAX_VALUE : Long.MIN_VALUE);
            }
            if (doubles != null && !min) {
                Arrays.fill(doubles, from, size, Double.NEGATIVE_INFINITY);
            }
        }
    }

    /** A string extreme is a reference to an input string it keeps alive: counted at a typical short string's size. */
    @Override
    long heapBytes() {
        int n = seen.length;
        long values = strings != null ? HeapSize.references(n) + TYPICAL_STRING * (long) n
                : longs != null || doubles != null ? HeapSize.longs(n) : HeapSize.booleans(n);
        return HeapSize.booleans(n) + values;
    }

    @Override
    List<DataType> stateTypes() {
        return List.of(type);
    }

    @Override
    Col[] states(int from, int count) {
        return new Col[] {result(from, count)};
    }

    @Override
    Col result(int from, int count) {
        boolean[] nulls = new boolean[count];
        for (int i = 0; i < count; i++) {
            nulls[i] = !seen[from + i];
        }
        if (highs != null) {
            return Col.ofInt128(type, Arrays.copyOfRange(highs, from, from + count),
                    Arrays.copyOfRange(longs, from, from + count), nulls);
        }
        return switch (type.kind()) {
            case FLOAT64 -> Col.ofDoubles(Arrays.copyOfRange(doubles, from, from + count), nulls);
            case UTF8 -> Col.ofStrings(Arrays.copyOfRange(strings, from, from + count), nulls);
            case BOOL, NULL -> Col.ofBools(Arrays.copyOfRange(bools, from, from + count), nulls).withType(type);
            default -> Col.ofLongs(type, Arrays.copyOfRange(longs, from, from + count), nulls);
        };
    }
}
