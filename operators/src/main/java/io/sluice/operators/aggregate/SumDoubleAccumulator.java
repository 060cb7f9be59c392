package io.sluice.operators.aggregate;

import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.kernels.InPlaceValues;
import io.sluice.kernels.Kernels;
import io.sluice.operators.memory.HeapSize;
import java.util.Arrays;
import java.util.List;

/** sum and avg over doubles. */
final class SumDoubleAccumulator extends Accumulator {
    private final boolean average;
    private double[] sums = new double[0];
    private long[] counts = new long[0];

    SumDoubleAccumulator(boolean average) {
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
        return addInPlace(groups, rows, arg, null);
    }

    @Override
    boolean mergeInPlace(int[] groups, int rows, InPlaceValues[] states) {
        return addInPlace(groups, rows, states[0], states[1]);
    }

    /** Doubles read in place; each counts once, or as many as {@code partialCounts} (null: none) says. */
    private boolean addInPlace(int[] groups, int rows, InPlaceValues arg, InPlaceValues partialCounts) {
        if (!arg.doubles || (partialCounts != null && partialCounts.doubles)) {
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
                counts[g] += partialCounts == null ? 1 : partialCounts.longAt(i);
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
