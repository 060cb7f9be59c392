package io.sluice.operators.aggregate;

import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.kernels.Kernels;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.operators.memory.HeapSize;
import java.util.Arrays;
import java.util.List;

/**
 * {@code var_samp}, {@code var_pop}, {@code stddev_samp} and {@code stddev_pop} of one numeric
 * argument. The state per group is the count, the mean and M2 (the sum of squared deviations from
 * the mean): updated row by row with Welford's method and merged with Chan et al.'s parallel
 * formula, so neither phase subtracts two large sums (the textbook {@code Σx² - (Σx)²/n} loses all
 * precision when the mean is large against the spread). Values are also taken relative to a pivot,
 * the group's first value (x - pivot is exact for values near it), so that the rounding of a mean
 * near 10^8 does not leak into every deviation; merging shifts one state to the other's pivot.
 * NULLs are skipped. A group without values gives NULL; the sample forms of a single value give NULL
 * too, as in DuckDB and PostgreSQL.
 */
final class Moments extends Accumulator {
    private final AggregateFunction function;
    private long[] counts = new long[0];
    private double[] pivots = new double[0];
    private double[] means = new double[0];
    private double[] m2s = new double[0];

    Moments(AggregateFunction function) {
        this.function = function;
    }

    @Override
    void update(int[] groups, int rows, Col arg) {
        if (arg.type.kind() == Kind.NULL) {
            return;
        }
        double[] x = Kernels.toDoubles(arg);
        boolean[] nulls = arg.nulls;
        long[] n = counts;
        double[] pivot = pivots;
        double[] mean = means;
        double[] m2 = m2s;
        for (int i = 0; i < rows; i++) {
            if (nulls == null || !nulls[i]) {
                int g = groups[i];
                long count = ++n[g];
                if (count == 1) {
                    pivot[g] = x[i];
                }
                double v = x[i] - pivot[g];
                double delta = v - mean[g];
                mean[g] += delta / count;
                m2[g] += delta * (v - mean[g]);
            }
        }
    }

    @Override
    void merge(int[] groups, int rows, Col[] states) {
        long[] nb = states[0].longs;
        double[] pivotB = states[1].doubles;
        double[] meanB = states[2].doubles;
        double[] m2B = states[3].doubles;
        for (int i = 0; i < rows; i++) {
            if (nb[i] == 0) {
                continue;
            }
            int g = groups[i];
            long na = counts[g];
            if (na == 0) {
                pivots[g] = pivotB[i];
            }
            long n = na + nb[i];
            double delta = meanB[i] + (pivotB[i] - pivots[g]) - means[g];
            double weight = (double) nb[i] / n;
            means[g] += delta * weight;
            m2s[g] += m2B[i] + delta * delta * na * weight;
            counts[g] = n;
        }
    }

    @Override
    long heapBytes() {
        // 4 state arrays of one length, grown together by ensureCapacity
        return 4 * HeapSize.longs(counts.length);
    }

    @Override
    void ensureCapacity(int groups) {
        if (counts.length < groups) {
            int size = grow(counts.length, groups);
            counts = Arrays.copyOf(counts, size);
            pivots = Arrays.copyOf(pivots, size);
            means = Arrays.copyOf(means, size);
            m2s = Arrays.copyOf(m2s, size);
        }
    }

    @Override
    List<DataType> stateTypes() {
        return List.of(DataType.INT64, DataType.FLOAT64, DataType.FLOAT64, DataType.FLOAT64);
    }

    @Override
    Col[] states(int from, int count) {
        return new Col[] {countColumn(counts, from, count), doubleColumn(pivots, from, count),
                doubleColumn(means, from, count), doubleColumn(m2s, from, count)};
    }

    @Override
    Col result(int from, int count) {
        boolean sample = function == AggregateFunction.VAR_SAMP || function == AggregateFunction.STDDEV_SAMP;
        boolean root = function == AggregateFunction.STDDEV_SAMP || function == AggregateFunction.STDDEV_POP;
        double[] out = new double[count];
        boolean[] nulls = new boolean[count];
        for (int i = 0; i < count; i++) {
            long n = counts[from + i];
            long divisor = sample ? n - 1 : n;
            if (divisor <= 0) {
                nulls[i] = true;
                continue;
            }
            double variance = m2s[from + i] / divisor;
            out[i] = root ? Math.sqrt(variance) : variance;
        }
        return Col.ofDoubles(out, nulls);
    }
}
