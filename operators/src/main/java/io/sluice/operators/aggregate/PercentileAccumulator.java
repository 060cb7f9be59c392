package io.sluice.operators.aggregate;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.kernels.NestedValues;
import io.sluice.operators.memory.HeapSize;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code percentile_approx(x, percentage[, accuracy])} (also {@code approx_percentile}): per group a
 * {@link QuantileSketch} of x (numbers, dates and timestamps, as doubles), and the smallest value
 * whose rank reaches {@code percentage} of the group's, as Spark defines it, of x's type. Exact up
 * to {@code 2 * accuracy} values a group. State: the sketch as an array of doubles.
 */
final class PercentileAccumulator extends Accumulator {
    private static final DataType STATE = DataType.list(DataType.FLOAT64);
    private final DataType type;
    private final double percentage;
    private final int accuracy;
    private QuantileSketch[] sketches = new QuantileSketch[0];
    private long bytes;

    PercentileAccumulator(DataType type, double percentage, long accuracy) {
        if (!type.isNumeric() && !type.isTemporal() && type.kind() != DataType.Kind.NULL) {
            throw new SluiceException("percentile_approx() needs a number, date or timestamp, not " + type.sqlName());
        }
        if (!(percentage >= 0 && percentage <= 1)) {
            throw new SluiceException("percentile_approx(): the percentage " + percentage + " must be between 0 and 1");
        }
        if (accuracy <= 0 || accuracy > Integer.MAX_VALUE) {
            throw new SluiceException("percentile_approx(): the accuracy " + accuracy + " must be a positive INT");
        }
        this.type = type;
        this.percentage = percentage;
        this.accuracy = (int) Math.min(accuracy, 1 << 20);
    }

    private QuantileSketch sketch(int g) {
        if (sketches[g] == null) {
            sketches[g] = new QuantileSketch(accuracy);
        }
        return sketches[g];
    }

    @Override
    void update(int[] groups, int rows, Col arg) {
        if (arg.type.kind() == DataType.Kind.NULL) {
            return;
        }
        boolean doubles = arg.type.kind() == DataType.Kind.FLOAT64;
        long[] longs = doubles ? null : arg.requireLongs("the argument of percentile_approx()");
        for (int i = 0; i < rows; i++) {
            if (!arg.isNull(i)) {
                QuantileSketch s = sketch(groups[i]);
                long before = s.bytes();
                s.add(doubles ? arg.doubles[i] : longs[i]);
                bytes += s.bytes() - before;
            }
        }
    }

    @Override
    void merge(int[] groups, int rows, Col[] states) {
        Col state = states[0];
        for (int i = 0; i < rows; i++) {
            if (!state.isNull(i)) {
                QuantileSketch s = sketch(groups[i]);
                long before = s.bytes();
                s.merge((List<?>) state.objects[i]);
                bytes += s.bytes() - before;
            }
        }
    }

    @Override
    void ensureCapacity(int groups) {
        if (sketches.length < groups) {
            sketches = Arrays.copyOf(sketches, grow(sketches.length, groups));
        }
    }

    @Override
    List<DataType> stateTypes() {
        return List.of(STATE);
    }

    @Override
    Col[] states(int from, int count) {
        Object[] values = new Object[count];
        for (int i = 0; i < count; i++) {
            QuantileSketch s = sketches[from + i];
            if (s != null) {
                List<Double> out = new ArrayList<>();
                s.writeTo(out);
                values[i] = out;
            }
        }
        return new Col[] {NestedValues.of(STATE, values)};
    }

    @Override
    Col result(int from, int count) {
        DataType out = type.kind() == DataType.Kind.NULL ? DataType.FLOAT64 : type;
        Col result = Col.allocate(out, count, true);
        for (int i = 0; i < count; i++) {
            QuantileSketch s = sketches[from + i];
            double q = s == null ? Double.NaN : s.quantile(percentage);
            if (s == null || Double.isNaN(q) && out.kind() != DataType.Kind.FLOAT64) {
                result.nulls[i] = true;
            } else if (out.kind() == DataType.Kind.FLOAT64) {
                result.doubles[i] = q;
            } else {
                result.longs[i] = Math.round(q);
            }
        }
        return result;
    }

    @Override
    long heapBytes() {
        return HeapSize.references(sketches.length) + bytes;
    }
}
