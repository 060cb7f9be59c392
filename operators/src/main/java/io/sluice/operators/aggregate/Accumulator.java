package io.sluice.operators.aggregate;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import io.sluice.common.types.TypeRules;
import io.sluice.kernels.Col;
import io.sluice.kernels.InPlaceValues;
import io.sluice.kernels.Int128;
import io.sluice.kernels.Kernels;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.operators.memory.HeapSize;
import java.util.Arrays;
import java.util.List;

/**
 * The per-group state of one aggregate function, in arrays indexed by group id. Updated once per
 * batch (a loop over the batch's rows), so the virtual call is per batch, not per row.
 *
 * <p>Two-phase aggregation: the partial phase {@link #update}s from raw values and emits
 * {@link #states}; the final phase {@link #merge}s those states and emits {@link #result}.
 */
abstract class Accumulator {
    /** Folds raw argument values into their groups ({@code arg} is null for count(*)). */
    abstract void update(int[] groups, int rows, Col arg);

    /** Folds the raw values of a two-argument function's arguments into their groups. */
    void update(int[] groups, int rows, Col arg, Col second) {
        update(groups, rows, arg);
    }

    /**
     * Folds raw argument values read in place from their Arrow vector into their groups, as
     * {@link #update(int[], int, Col)} would from the heap column; false (nothing done) when this
     * accumulator does not read that form, and the caller passes the heap column instead.
     */
    boolean updateInPlace(int[] groups, int rows, InPlaceValues arg) {
        return false;
    }

    /** Folds partial states (as emitted by {@link #states}) into their groups. */
    abstract void merge(int[] groups, int rows, Col[] states);

    /** Grows the state to hold {@code groups} groups. */
    abstract void ensureCapacity(int groups);

    /** Types of the partial state columns. */
    abstract List<DataType> stateTypes();

    abstract Col[] states(int from, int count);

    abstract Col result(int from, int count);

    /** Estimated heap bytes of the per-group state (for the aggregate's memory reservation). */
    abstract long heapBytes();

    /** The accumulator of {@code function} over {@code argType}; {@code expression} names it in errors. */
    static Accumulator create(AggregateFunction function, DataType argType, String expression) {
        return switch (function) {
            case COUNT -> new Count(false);
            case COUNT_STAR -> new Count(true);
            case SUM -> argType.kind() == Kind.FLOAT64 ? new SumDouble(false)
                    : new SumLong(function.resultType(argType), false, expression);
            case AVG -> argType.kind() == Kind.FLOAT64 ? new SumDouble(true)
                    : new SumLong(AggregateFunction.SUM.resultType(argType), true, expression);
            case MIN, MAX -> new MinMax(argType, function == AggregateFunction.MIN);
            case SINGLE_VALUE -> new SingleValue(argType, expression);
            case STDDEV_SAMP, STDDEV_POP, VAR_SAMP, VAR_POP -> new Moments(function);
            case CORR, COVAR_SAMP, COVAR_POP -> new CoMoments(function);
        };
    }

    /** Groups {@code [from, from + count)} that saw no value: their sum, min, max or avg is NULL. */
    static boolean[] noRows(long[] counts, int from, int count) {
        boolean[] empty = new boolean[count];
        for (int i = 0; i < count; i++) {
            empty[i] = counts[from + i] == 0;
        }
        return empty;
    }

    /** {@code totals[i] / counts[from + i]}, NULL where a group saw no value; divides {@code totals} in place. */
    static Col averages(double[] totals, long[] counts, int from) {
        boolean[] nulls = noRows(counts, from, totals.length);
        for (int i = 0; i < totals.length; i++) {
            if (!nulls[i]) {
                totals[i] /= counts[from + i];
            }
        }
        return Col.ofDoubles(totals, nulls);
    }

    /** The per-group row counts of {@code [from, from + count)} as a state column. */
    static Col countColumn(long[] counts, int from, int count) {
        return Col.ofLongs(DataType.INT64, Arrays.copyOfRange(counts, from, from + count), null);
    }

    /** Groups {@code [from, from + count)} of a per-group double state as a state column. */
    static Col doubleColumn(double[] values, int from, int count) {
        return Col.ofDoubles(Arrays.copyOfRange(values, from, from + count), null);
    }

    static int grow(int current, int needed) {
        int size = Math.max(16, current);
        while (size < needed) {
            size *= 2;
        }
        return size;
    }

    /** count(x) and count(*). */
    static final class Count extends Accumulator {
        private final boolean star;
        private long[] counts = new long[0];

        Count(boolean star) {
            this.star = star;
        }

        @Override
        void update(int[] groups, int rows, Col arg) {
            if (star || arg.nulls == null) {
                for (int i = 0; i < rows; i++) {
                    counts[groups[i]]++;
                }
            } else {
                boolean[] nulls = arg.nulls;
                for (int i = 0; i < rows; i++) {
                    counts[groups[i]] += nulls[i] ? 0 : 1;
                }
            }
        }

        @Override
        boolean updateInPlace(int[] groups, int rows, InPlaceValues arg) {
            long validity = arg.validity;
            if (star || validity == 0) {
                for (int i = 0; i < rows; i++) {
                    counts[groups[i]]++;
                }
            } else {
                for (int i = 0; i < rows; i++) {
                    counts[groups[i]] += InPlaceValues.isNull(validity, i) ? 0 : 1;
                }
            }
            return true;
        }

        @Override
        void merge(int[] groups, int rows, Col[] states) {
            long[] partial = states[0].longs;
            for (int i = 0; i < rows; i++) {
                counts[groups[i]] += partial[i];
            }
        }

        @Override
        void ensureCapacity(int groups) {
            if (counts.length < groups) {
                counts = Arrays.copyOf(counts, grow(counts.length, groups));
            }
        }

        @Override
        long heapBytes() {
            return HeapSize.longs(counts.length);
        }

        @Override
        List<DataType> stateTypes() {
            return List.of(DataType.INT64);
        }

        @Override
        Col[] states(int from, int count) {
            return new Col[] {result(from, count)};
        }

        @Override
        Col result(int from, int count) {
            return Col.ofLongs(DataType.INT64, Arrays.copyOfRange(counts, from, from + count), null);
        }
    }

    /**
     * sum over long-backed values, exact: a sum past the sum type's precision (when a state or
     * result is emitted), or past a long for integers, is an error naming the expression. With
     * {@code average}, also counts. A decimal sum of precision 19 to 38 keeps 128-bit sums as
     * {@code highs[g] * 2^64 + sums[g]} with {@code sums[g]} a signed long: a long value adds as to
     * a long sum, and only a signed overflow (a branch almost never taken) moves one unit into
     * {@code highs}, so the common case costs what a long sum does.
     */
    static final class SumLong extends Accumulator {
        private final DataType sumType;
        private final boolean average;
        private final String expression;
        private final boolean wide;
        private long[] sums = new long[0];
        private long[] highs = new long[0];
        private long[] counts = new long[0];

        SumLong(DataType sumType, boolean average, String expression) {
            this.sumType = sumType;
            this.average = average;
            this.expression = expression;
            this.wide = sumType.isWideDecimal();
        }

        @Override
        void update(int[] groups, int rows, Col arg) {
            if (arg.type.kind() == Kind.NULL) {
                return;
            }
            add(groups, rows, arg, null);
        }

        /** Long-backed values of the sum's scale (a decimal of another scale is rescaled on the heap path). */
        @Override
        boolean updateInPlace(int[] groups, int rows, InPlaceValues arg) {
            if (arg.doubles || arg.scale != sumType.scale()) {
                return false;
            }
            long data = arg.data;
            int shift = arg.shift;
            long validity = arg.validity;
            long[] sums = this.sums;
            long[] counts = this.counts;
            if (wide) {
                long[] highs = this.highs;
                for (int i = 0; i < rows; i++) {
                    if (!InPlaceValues.isNull(validity, i)) {
                        int g = groups[i];
                        long v = InPlaceValues.longAt(data, shift, i);
                        long low = sums[g];
                        long sum = low + v;
                        if (((low ^ sum) & (v ^ sum)) < 0) {
                            highs[g] += v < 0 ? -1 : 1; // the long wrapped by 2^64
                        }
                        sums[g] = sum;
                        counts[g]++;
                    }
                }
                return true;
            }
            try {
                for (int i = 0; i < rows; i++) {
                    if (!InPlaceValues.isNull(validity, i)) {
                        int g = groups[i];
                        sums[g] = Math.addExact(sums[g], InPlaceValues.longAt(data, shift, i));
                        counts[g]++;
                    }
                }
            } catch (ArithmeticException e) {
                throw overflow();
            }
            return true;
        }

        private void add(int[] groups, int rows, Col arg, long[] partialCounts) {
            boolean[] nulls = arg.nulls;
            try {
                if (arg.isWide() || (wide && arg.type.scale() != sumType.scale())) {
                    addWide(groups, rows, arg, partialCounts);
                    return;
                }
                long[] values = arg.type.kind() == Kind.DECIMAL ? Kernels.toScaledLongs(arg, sumType.scale()) : arg.longs;
                if (wide) {
                    long[] highs = this.highs;
                    for (int i = 0; i < rows; i++) {
                        if (nulls == null || !nulls[i]) {
                            int g = groups[i];
                            long v = values[i];
                            long low = sums[g];
                            long sum = low + v;
                            if (((low ^ sum) & (v ^ sum)) < 0) {
                                highs[g] += v < 0 ? -1 : 1; // the long wrapped by 2^64
                            }
                            sums[g] = sum;
                            counts[g] += partialCounts == null ? 1 : partialCounts[i];
                        }
                    }
                    return;
                }
                for (int i = 0; i < rows; i++) {
                    if (nulls == null || !nulls[i]) {
                        int g = groups[i];
                        sums[g] = Math.addExact(sums[g], values[i]);
                        counts[g] += partialCounts == null ? 1 : partialCounts[i];
                    }
                }
            } catch (ArithmeticException e) {
                throw overflow();
            }
        }

        /** Values in the wide form (or needing a rescale past a long) into 128-bit sums. */
        private void addWide(int[] groups, int rows, Col arg, long[] partialCounts) {
            if (!wide) {
                throw overflow();
            }
            long[] hi = new long[rows];
            long[] lo = new long[rows];
            io.sluice.kernels.Int128Kernels.scaled(arg, sumType.scale(), hi, lo, arg.nulls);
            boolean[] nulls = arg.nulls;
            for (int i = 0; i < rows; i++) {
                if (nulls == null || !nulls[i]) {
                    int g = groups[i];
                    long low = sums[g];
                    long high = highs[g] + (low >> 63); // two's complement words of the sum
                    long sum = low + lo[i];
                    high = Int128.addHigh(high, low, hi[i], sum);
                    highs[g] = high - (sum >> 63);
                    sums[g] = sum;
                    counts[g] += partialCounts == null ? 1 : partialCounts[i];
                }
            }
        }

        private SluiceException overflow() {
            return new SluiceException("numeric overflow: " + expression + " does not fit " + sumType);
        }

        @Override
        void merge(int[] groups, int rows, Col[] states) {
            add(groups, rows, states[0], states[1].longs);
        }

        @Override
        void ensureCapacity(int groups) {
            if (sums.length < groups) {
                int size = grow(sums.length, groups);
                sums = Arrays.copyOf(sums, size);
                counts = Arrays.copyOf(counts, size);
                if (wide) {
                    highs = Arrays.copyOf(highs, size);
                }
            }
        }

        @Override
        long heapBytes() {
            return HeapSize.longs(sums.length) * (wide ? 2 : 1) + HeapSize.longs(counts.length);
        }

        @Override
        List<DataType> stateTypes() {
            return List.of(sumType, DataType.INT64);
        }

        @Override
        Col[] states(int from, int count) {
            return new Col[] {sums(from, count), countColumn(counts, from, count)};
        }

        private Col sums(int from, int count) {
            boolean[] nulls = noRows(counts, from, count);
            if (wide) {
                long[] hi = new long[count];
                for (int i = 0; i < count; i++) {
                    int g = from + i;
                    hi[i] = highs[g] + (sums[g] >> 63);
                    if (!Int128.fitsPrecision(hi[i], sums[g], sumType.precision())) {
                        throw overflow();
                    }
                }
                return Col.ofInt128(sumType, hi, Arrays.copyOfRange(sums, from, from + count), nulls);
            }
            if (sumType.kind() == Kind.DECIMAL) {
                long limit = TypeRules.pow10(sumType.precision());
                for (int g = from; g < from + count; g++) {
                    if (sums[g] >= limit || sums[g] <= -limit) {
                        throw overflow();
                    }
                }
            }
            return Col.ofLongs(sumType, Arrays.copyOfRange(sums, from, from + count), nulls);
        }

        @Override
        Col result(int from, int count) {
            if (!average) {
                return sums(from, count);
            }
            double divisor = sumType.kind() == Kind.DECIMAL ? Math.pow(10, sumType.scale()) : 1;
            double[] totals = new double[count];
            for (int i = 0; i < count; i++) {
                int g = from + i;
                totals[i] = (wide ? Int128.toDouble(highs[g] + (sums[g] >> 63), sums[g]) : sums[g]) / divisor;
            }
            return averages(totals, counts, from);
        }
    }

    /** sum and avg over doubles. */
    static final class SumDouble extends Accumulator {
        private final boolean average;
        private double[] sums = new double[0];
        private long[] counts = new long[0];

        SumDouble(boolean average) {
            this.average = average;
        }

        @Override
        void update(int[] groups, int rows, Col arg) {
            if (arg.type.kind() == Kind.NULL) {
                return;
            }
            add(groups, rows, Kernels.toDoubles(arg), arg.nulls, null);
        }

        @Override
        boolean updateInPlace(int[] groups, int rows, InPlaceValues arg) {
            if (!arg.doubles) {
                return false;
            }
            long data = arg.data;
            long validity = arg.validity;
            double[] sums = this.sums;
            long[] counts = this.counts;
            for (int i = 0; i < rows; i++) {
                if (!InPlaceValues.isNull(validity, i)) {
                    int g = groups[i];
                    sums[g] += InPlaceValues.doubleAt(data, i);
                    counts[g]++;
                }
            }
            return true;
        }

        private void add(int[] groups, int rows, double[] values, boolean[] nulls, long[] partialCounts) {
            for (int i = 0; i < rows; i++) {
                if (nulls == null || !nulls[i]) {
                    int g = groups[i];
                    sums[g] += values[i];
                    counts[g] += partialCounts == null ? 1 : partialCounts[i];
                }
            }
        }

        @Override
        void merge(int[] groups, int rows, Col[] states) {
            add(groups, rows, states[0].doubles, states[0].nulls, states[1].longs);
        }

        @Override
        void ensureCapacity(int groups) {
            if (sums.length < groups) {
                int size = grow(sums.length, groups);
                sums = Arrays.copyOf(sums, size);
                counts = Arrays.copyOf(counts, size);
            }
        }

        @Override
        long heapBytes() {
            return HeapSize.longs(sums.length) + HeapSize.longs(counts.length);
        }

        @Override
        List<DataType> stateTypes() {
            return List.of(DataType.FLOAT64, DataType.INT64);
        }

        @Override
        Col[] states(int from, int count) {
            return new Col[] {sums(from, count), countColumn(counts, from, count)};
        }

        private Col sums(int from, int count) {
            boolean[] nulls = noRows(counts, from, count);
            return Col.ofDoubles(Arrays.copyOfRange(sums, from, from + count), nulls);
        }

        @Override
        Col result(int from, int count) {
            if (!average) {
                return sums(from, count);
            }
            return averages(Arrays.copyOfRange(sums, from, from + count), counts, from);
        }
    }

    /** min and max over any comparable type; the state is the running extreme. */
    static final class MinMax extends Accumulator {
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

        MinMax(DataType type, boolean min) {
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

    /**
     * A scalar subquery's value per group: the row count (NULLs included) and the value, which is
     * the group's only one when the count is at most 1; more rows are the error PostgreSQL and
     * DuckDB raise for a scalar subquery returning several rows.
     */
    static final class SingleValue extends Accumulator {
        private final MinMax value;
        private final Count rows = new Count(true);
        private final int valueStates;
        private final String expression;

        /** {@code expression}, {@code single_value(column)}, names the subquery's selected column in the error. */
        SingleValue(DataType type, String expression) {
            this.value = new MinMax(type, true);
            this.valueStates = value.stateTypes().size();
            this.expression = expression;
        }

        @Override
        void update(int[] groups, int rows, Col arg) {
            value.update(groups, rows, arg);
            this.rows.update(groups, rows, null);
        }

        @Override
        void merge(int[] groups, int rows, Col[] states) {
            value.merge(groups, rows, Arrays.copyOfRange(states, 0, valueStates));
            this.rows.merge(groups, rows, new Col[] {states[valueStates]});
        }

        @Override
        void ensureCapacity(int groups) {
            value.ensureCapacity(groups);
            rows.ensureCapacity(groups);
        }

        @Override
        long heapBytes() {
            return value.heapBytes() + rows.heapBytes();
        }

        @Override
        List<DataType> stateTypes() {
            List<DataType> types = new java.util.ArrayList<>(value.stateTypes());
            types.add(DataType.INT64);
            return types;
        }

        @Override
        Col[] states(int from, int count) {
            Col[] v = value.states(from, count);
            Col[] out = Arrays.copyOf(v, v.length + 1);
            out[v.length] = rows.result(from, count);
            return out;
        }

        @Override
        Col result(int from, int count) {
            long[] counts = rows.result(from, count).longs;
            for (int i = 0; i < count; i++) {
                if (counts[i] > 1) {
                    throw new SluiceException("scalar subquery returned more than one row (" + counts[i]
                            + " rows for one outer row) selecting " + selected()
                            + "; a subquery used as a value must return at most one");
                }
            }
            return value.result(from, count);
        }

        /** The selected column: {@code expression} without the {@code single_value( )} around it. */
        private String selected() {
            int open = expression.indexOf('(');
            return open >= 0 && expression.endsWith(")") ? expression.substring(open + 1, expression.length() - 1) : expression;
        }
    }
}
