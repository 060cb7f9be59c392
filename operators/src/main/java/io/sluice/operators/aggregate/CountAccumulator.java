package io.sluice.operators.aggregate;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.kernels.InPlaceValues;
import io.sluice.operators.memory.HeapSize;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.NullVector;

/** count(x) and count(*). */
final class CountAccumulator extends Accumulator {
    private final boolean star;
    private long[] counts = new long[0];

    CountAccumulator(boolean star) {
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
        countNonNulls(groups, rows, star ? 0 : arg.validity);
        return true;
    }

    @Override
    boolean updateNonNulls(int[] groups, int rows, FieldVector arg) {
        if (arg.getValueCount() != rows) {
            return false;
        }
        if (arg instanceof NullVector) {
            return true; // every row NULL: nothing counted
        }
        if (!(arg instanceof BaseFixedWidthVector || arg instanceof BaseVariableWidthVector)) {
            return false;
        }
        countNonNulls(groups, rows, star || arg.getNullCount() == 0 ? 0 : arg.getValidityBufferAddress());
        return true;
    }

    /** Counts each row whose validity bit is set (every row when {@code validity} is 0) in its group. */
    private void countNonNulls(int[] groups, int rows, long validity) {
        if (validity == 0) {
            for (int i = 0; i < rows; i++) {
                counts[groups[i]]++;
            }
        } else {
            for (int i = 0; i < rows; i++) {
                counts[groups[i]] += InPlaceValues.isNull(validity, i) ? 0 : 1;
            }
        }
    }

    @Override
    boolean mergeInPlace(int[] groups, int rows, InPlaceValues[] states) {
        InPlaceValues partial = states[0];
        if (partial.doubles || partial.validity != 0) {
            return false;
        }
        long data = partial.data;
        int shift = partial.shift;
        for (int i = 0; i < rows; i++) {
            counts[groups[i]] += InPlaceValues.longAt(data, shift, i);
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
