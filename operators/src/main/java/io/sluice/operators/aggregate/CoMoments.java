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
 * {@code covar_samp}, {@code covar_pop} and {@code corr} of two numeric arguments {@code (y, x)}, over
 * the rows where both are non-NULL. The state per group is the count, a pivot per side (the group's
 * first pair, as in {@link Moments}), both means relative to it, the co-moment
 * C = Σ(x - x̄)(y - ȳ) and both M2s, updated row by row (the bivariate Welford update) and merged
 * with the parallel formula {@code C = Ca + Cb + δx·δy·na·nb/n}, so large means cost no precision.
 * A group without pairs gives NULL; {@code covar_samp} of one pair gives NULL, as in DuckDB;
 * {@code corr} is {@code C / sqrt(M2x·M2y)}, NaN when either side is constant, as in DuckDB.
 */
final class CoMoments extends Accumulator {
    private final AggregateFunction function;
    private long[] counts = new long[0];
    private double[] pivotX = new double[0];
    private double[] pivotY = new double[0];
    private double[] meanX = new double[0];
    private double[] meanY = new double[0];
    private double[] m2X = new double[0];
    private double[] m2Y = new double[0];
    private double[] co = new double[0];

    CoMoments(AggregateFunction function) {
        this.function = function;
    }

    @Override
    void update(int[] groups, int rows, Col arg) {
        throw new IllegalStateException(function + " takes two arguments");
    }

    @Override
    void update(int[] groups, int rows, Col yCol, Col xCol) {
        if (yCol.type.kind() == Kind.NULL || xCol.type.kind() == Kind.NULL) {
            return;
        }
        double[] y = Kernels.toDoubles(yCol);
        double[] x = Kernels.toDoubles(xCol);
        boolean[] nulls = Kernels.mergeNulls(yCol.nulls, xCol.nulls);
        for (int i = 0; i < rows; i++) {
            if (nulls == null || !nulls[i]) {
                int g = groups[i];
                long n = ++counts[g];
                if (n == 1) {
                    pivotX[g] = x[i];
                    pivotY[g] = y[i];
                }
                double vx = x[i] - pivotX[g];
                double vy = y[i] - pivotY[g];
                double dx = vx - meanX[g];
                double dy = vy - meanY[g];
                meanX[g] += dx / n;
                meanY[g] += dy / n;
                double ry = vy - meanY[g];
                co[g] += dx * ry;
                m2X[g] += dx * (vx - meanX[g]);
                m2Y[g] += dy * ry;
            }
        }
    }

    @Override
    void merge(int[] groups, int rows, Col[] states) {
        long[] nb = states[0].longs;
        double[] pxB = states[1].doubles;
        double[] pyB = states[2].doubles;
        double[] mxB = states[3].doubles;
        double[] myB = states[4].doubles;
        double[] m2xB = states[5].doubles;
        double[] m2yB = states[6].doubles;
        double[] coB = states[7].doubles;
        for (int i = 0; i < rows; i++) {
            if (nb[i] == 0) {
                continue;
            }
            int g = groups[i];
            long na = counts[g];
            if (na == 0) {
                pivotX[g] = pxB[i];
                pivotY[g] = pyB[i];
            }
            long n = na + nb[i];
            double dx = mxB[i] + (pxB[i] - pivotX[g]) - meanX[g];
            double dy = myB[i] + (pyB[i] - pivotY[g]) - meanY[g];
            double weight = (double) nb[i] / n;
            double cross = na * weight;
            meanX[g] += dx * weight;
            meanY[g] += dy * weight;
            co[g] += coB[i] + dx * dy * cross;
            m2X[g] += m2xB[i] + dx * dx * cross;
            m2Y[g] += m2yB[i] + dy * dy * cross;
            counts[g] = n;
        }
    }

    @Override
    long heapBytes() {
        // 8 state arrays of one length, grown together by ensureCapacity
        return 8 * HeapSize.longs(counts.length);
    }

    @Override
    void ensureCapacity(int groups) {
        if (counts.length < groups) {
            int size = grow(counts.length, groups);
            counts = Arrays.copyOf(counts, size);
            pivotX = Arrays.copyOf(pivotX, size);
            pivotY = Arrays.copyOf(pivotY, size);
            meanX = Arrays.copyOf(meanX, size);
            meanY = Arrays.copyOf(meanY, size);
            m2X = Arrays.copyOf(m2X, size);
            m2Y = Arrays.copyOf(m2Y, size);
            co = Arrays.copyOf(co, size);
        }
    }

    @Override
    List<DataType> stateTypes() {
        return List.of(DataType.INT64, DataType.FLOAT64, DataType.FLOAT64, DataType.FLOAT64, DataType.FLOAT64,
                DataType.FLOAT64, DataType.FLOAT64, DataType.FLOAT64);
    }

    @Override
    Col[] states(int from, int count) {
        return new Col[] {countColumn(counts, from, count), doubleColumn(pivotX, from, count),
                doubleColumn(pivotY, from, count), doubleColumn(meanX, from, count), doubleColumn(meanY, from, count),
                doubleColumn(m2X, from, count), doubleColumn(m2Y, from, count), doubleColumn(co, from, count)};
    }

    @Override
    Col result(int from, int count) {
        double[] out = new double[count];
        boolean[] nulls = new boolean[count];
        for (int i = 0; i < count; i++) {
            int g = from + i;
            long n = counts[g];
            switch (function) {
                case COVAR_POP -> {
                    nulls[i] = n == 0;
                    out[i] = n == 0 ? 0 : co[g] / n;
                }
                case COVAR_SAMP -> {
                    nulls[i] = n < 2;
                    out[i] = n < 2 ? 0 : co[g] / (n - 1);
                }
                default -> {
                    nulls[i] = n == 0;
                    out[i] = n == 0 ? 0 : co[g] / Math.sqrt(m2X[g] * m2Y[g]);
                }
            }
        }
        return Col.ofDoubles(out, nulls);
    }
}
