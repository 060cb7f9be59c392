package io.sluice.operators.aggregate;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import java.util.Arrays;
import java.util.List;

/**
 * A scalar subquery's value per group: the row count (NULLs included) and the value, which is
 * the group's only one when the count is at most 1; more rows are the error PostgreSQL and
 * DuckDB raise for a scalar subquery returning several rows.
 */
final class SingleValueAccumulator extends Accumulator {
    private final MinMaxAccumulator value;
    private final CountAccumulator rows = new CountAccumulator(true);
    private final int valueStates;
    private final String expression;

    /** {@code expression}, {@code single_value(column)}, names the subquery's selected column in the error. */
    SingleValueAccumulator(DataType type, String expression) {
        this.value = new MinMaxAccumulator(type, true);
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
