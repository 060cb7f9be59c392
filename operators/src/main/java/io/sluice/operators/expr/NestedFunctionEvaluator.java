package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.kernels.NestedValues;
import io.sluice.logical.expr.NestedFunctions;
import io.sluice.logical.expr.ScalarFunction;
import io.sluice.logical.expr.ScalarFunction.Function;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The values of a function over nested values ({@link NestedFunctions} gives their rules), row by
 * row over the Java form of its arguments: nested columns are payload, so these run on what a
 * query selects, not in a hot loop over every row of a scan.
 */
record NestedFunctionEvaluator(ScalarFunction source) implements ChildValuesFunction {
    NestedFunctionEvaluator {
        requireNonNull(source, "source is null");
    }

    @Override
    public Col apply(List<Col> cols, DataType out) {
        int n = cols.get(0).length;
        Object[] values = new Object[n];
        Function function = source.function();
        Col first = cols.get(0);
        int field = function == Function.GET_FIELD ? NestedFunctions.fieldIndex(source, first.type) : -1;
        for (int row = 0; row < n; row++) {
            values[row] = switch (function) {
                case GET_FIELD -> first.isNull(row) ? null
                        : ((Map<?, ?>) first.get(row)).get(first.type.fields().get(field).name());
                case ITEM, ELEMENT_AT -> item(first, cols.get(1), row, function == Function.ELEMENT_AT);
                case SIZE -> first.isNull(row) ? null
                        : first.type.kind() == DataType.Kind.LIST ? ((List<?>) first.get(row)).size() : ((Map<?, ?>) first.get(row)).size();
                case STRUCT, ARRAY -> valuesAt(cols, row, 0, 1);
                case NAMED_STRUCT -> valuesAt(cols, row, 1, 2);
                case MAP -> map(cols, row);
                default -> throw new IllegalStateException("not a nested function: " + function);
            };
        }
        return NestedValues.of(out, values);
    }

    private static Object item(Col container, Col key, int row, boolean oneBased) {
        if (container.isNull(row) || key.isNull(row)) {
            return null;
        }
        Object value = container.get(row);
        if (container.type.kind() == DataType.Kind.MAP) {
            return ((Map<?, ?>) value).get(NestedValues.canonical(key.get(row), container.type.keyType()));
        }
        List<?> list = (List<?>) value;
        long index = key.longs[row];
        if (oneBased) {
            if (index == 0) {
                throw new SluiceException("element_at(): index 0 is invalid, array indices start at 1");
            }
            index = index > 0 ? index - 1 : list.size() + index;
        }
        return index >= 0 && index < list.size() ? list.get((int) index) : null;
    }

    private static Object valuesAt(List<Col> cols, int row, int from, int step) {
        Object[] out = new Object[(cols.size() - from + step - 1) / step];
        for (int i = from, k = 0; i < cols.size(); i += step, k++) {
            out[k] = cols.get(i).get(row);
        }
        return java.util.Arrays.asList(out);
    }

    private static Object map(List<Col> cols, int row) {
        Map<Object, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < cols.size(); i += 2) {
            Object key = cols.get(i).get(row);
            if (key == null) {
                throw new SluiceException("map(): a key is NULL");
            }
            out.put(key, cols.get(i + 1).get(row));
        }
        return out;
    }
}
