package io.sluice.operators.aggregate;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import io.sluice.common.types.TypeRules;
import io.sluice.kernels.Col;
import io.sluice.kernels.InPlaceValues;
import io.sluice.kernels.Int128;
import io.sluice.kernels.Kernels;
import io.sluice.operators.memory.HeapSize;
import java.util.Arrays;
import java.util.List;

/**
 * sum over long-backed values, exact: a sum past the sum type's precision (when a state or
 * result is emitted), or past a long for integers, is an error naming the expression. With
 * {@code average}, also counts. A decimal sum of precision 19 to 38 keeps 128-bit sums as
 * {@code highs[g] * 2^64 + sums[g]} with {@code sums[g]} a signed long: a long value adds as to
 * a long sum, and only a signed overflow (a branch almost never taken) moves one unit into
 * {@code highs}, so the common case costs what a long sum does.
 *
 * <p>A sum and an average of one argument (q1's {@code sum(l_quantity)} and {@code avg(l_quantity)})
 * have the same state, a sum and a count: the later one {@link #sharing shares} the earlier's
 * arrays, so each row is added once.
 */
final class SumLongAccumulator extends Accumulator {
    private final DataType sumType;
    private final boolean average;
    private final String expression;
    private final boolean wide;
    private long[] sums = new long[0];
    private long[] highs = new long[0];
    private long[] counts = new long[0];
    /** The accumulator that holds and updates this one's state, or null when this one does. */
    private final SumLongAccumulator source;

    SumLongAccumulator(DataType sumType, boolean average, String expression) {
        this(sumType, average, expression, null);
    }

    private SumLongAccumulator(DataType sumType, boolean average, String expression, SumLongAccumulator source) {
        this.sumType = sumType;
        this.average = average;
        this.expression = expression;
        this.wide = sumType.isWideDecimal();
        this.source = source;
    }

    /**
     * This sum or average reading the state of {@code other}, a sum or average of the same argument
     * of the same aggregate, which the caller updates and merges (this one's updates do nothing);
     * this accumulator unchanged when the sum types differ or {@code other} shares a state itself.
     */
    SumLongAccumulator sharing(SumLongAccumulator other) {
        if (other.source != null || !other.sumType.equals(sumType) || source != null) {
            return this;
        }
        return new SumLongAccumulator(sumType, average, expression, other);
    }

    @Override
    boolean sharesState() {
        return source != null;
    }

    @Override
    void update(int[] groups, int rows, Col arg) {
        if (arg.type.kind() == Kind.NULL || source != null) {
            return;
        }
        add(groups, rows, arg, null);
    }

    /** Long-backed values of the sum's scale (a decimal of another scale is rescaled on the heap path). */
    @Override
    boolean updateInPlace(int[] groups, int rows, InPlaceValues arg) {
        return source != null || addInPlace(groups, rows, arg, null);
    }

    @Override
    boolean mergeInPlace(int[] groups, int rows, InPlaceValues[] states) {
        return source != null || addInPlace(groups, rows, states[0], states[1]);
    }

    /** As {@link #updateInPlace}; each value counts once, or as many as {@code partialCounts} (null: none) says. */
    private boolean addInPlace(int[] groups, int rows, InPlaceValues arg, InPlaceValues partialCounts) {
        if (arg.doubles || arg.scale != sumType.scale() || (partialCounts != null && partialCounts.doubles)) {
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
                    counts[g] += partialCounts == null ? 1 : partialCounts.longAt(i);
                }
            }
            return true;
        }
        try {
            for (int i = 0; i < rows; i++) {
                if (!InPlaceValues.isNull(validity, i)) {
                    int g = groups[i];
                    sums[g] = Math.addExact(sums[g], InPlaceValues.longAt(data, shift, i));
                    counts[g] += partialCounts == null ? 1 : partialCounts.longAt(i);
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
        if (source != null) {
            return;
        }
        add(groups, rows, states[0], states[1].longs);
    }

    @Override
    void ensureCapacity(int groups) {
        if (source == null && sums.length < groups) {
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
        return source != null ? 0 : HeapSize.longs(sums.length) * (wide ? 2 : 1) + HeapSize.longs(counts.length);
    }

    @Override
    List<DataType> stateTypes() {
        return List.of(sumType, DataType.INT64);
    }

    @Override
    Col[] states(int from, int count) {
        return new Col[] {sums(from, count), countColumn(state().counts, from, count)};
    }

    /** The accumulator whose arrays hold this one's state. */
    private SumLongAccumulator state() {
        return source != null ? source : this;
    }

    private Col sums(int from, int count) {
        long[] sums = state().sums;
        long[] highs = state().highs;
        long[] counts = state().counts;
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
        long[] sums = state().sums;
        long[] highs = state().highs;
        long[] counts = state().counts;
        double[] totals = new double[count];
        for (int i = 0; i < count; i++) {
            int g = from + i;
            totals[i] = (wide ? Int128.toDouble(highs[g] + (sums[g] >> 63), sums[g]) : sums[g]) / divisor;
        }
        return averages(totals, counts, from);
    }
}
