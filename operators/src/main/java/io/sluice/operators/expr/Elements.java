package io.sluice.operators.expr;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.kernels.NestedValues;
import java.util.List;
import java.util.Map;

/**
 * The elements of all the arrays (or entries of all the maps) of a column, flattened into one
 * column per part, so a lambda runs over them as one batch: row {@code r}'s are
 * {@code starts[r]..starts[r + 1]}, element {@code k} is of row {@code rows[k]}. A NULL row has none.
 */
record Elements(int[] starts, int[] rows, Object[] values, Object[] mapValues) {
    int count() {
        return rows.length;
    }

    /** The elements of a LIST column, or the entries of a MAP column. */
    static Elements of(Col container) {
        boolean map = container.type.kind() == DataType.Kind.MAP;
        int[] starts = new int[container.length + 1];
        for (int r = 0; r < container.length; r++) {
            Object value = container.objects[r];
            int size = value == null ? 0 : map ? ((Map<?, ?>) value).size() : ((List<?>) value).size();
            starts[r + 1] = starts[r] + size;
        }
        int count = starts[container.length];
        int[] rows = new int[count];
        Object[] values = new Object[count];
        Object[] mapValues = map ? new Object[count] : null;
        for (int r = 0; r < container.length; r++) {
            Object value = container.objects[r];
            int k = starts[r];
            if (value instanceof Map<?, ?> entries) {
                for (Map.Entry<?, ?> e : entries.entrySet()) {
                    rows[k] = r;
                    values[k] = e.getKey();
                    mapValues[k++] = e.getValue();
                }
            } else if (value != null) {
                for (Object element : (List<?>) value) {
                    rows[k] = r;
                    values[k++] = element;
                }
            }
        }
        return new Elements(starts, rows, values, mapValues);
    }

    /** The elements (the keys of a map) as a column of {@code type}. */
    Col column(DataType type) {
        return NestedValues.of(type, values);
    }

    /** A map's values as a column of {@code type}. */
    Col valueColumn(DataType type) {
        return NestedValues.of(type, mapValues);
    }

    /** Each element's 0-based index in its array, as INT. */
    Col indexes() {
        long[] out = new long[rows.length];
        for (int k = 0; k < out.length; k++) {
            out[k] = k - starts[rows[k]];
        }
        return Col.ofLongs(DataType.INT32, out, null);
    }
}
