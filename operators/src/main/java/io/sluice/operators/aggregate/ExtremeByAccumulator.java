package io.sluice.operators.aggregate;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import java.util.List;

/**
 * {@code max_by(x, y)} and {@code min_by(x, y)}: the value of x in the row whose y is largest
 * (smallest); rows whose y is NULL are skipped, as in Spark. State: x and y of the chosen row. The
 * final phase learns y's type from the first state it merges (its plan carries x's type only).
 */
final class ExtremeByAccumulator extends Accumulator {
    private final GroupValues values;
    private final boolean max;
    private GroupValues keys;
    private int capacity;

    /** {@code keyType} is null in the final phase. */
    ExtremeByAccumulator(DataType valueType, DataType keyType, boolean max) {
        this.values = new GroupValues(valueType);
        this.keys = keyType == null ? null : new GroupValues(keyType);
        this.max = max;
    }

    @Override
    void update(int[] groups, int rows, Col arg) {
        throw new IllegalStateException((max ? "max_by" : "min_by") + "() takes two arguments");
    }

    @Override
    void update(int[] groups, int rows, Col arg, Col key) {
        if (key.type.kind() == DataType.Kind.NULL) {
            return;
        }
        keys(key.type);
        int sign = max ? 1 : -1;
        for (int i = 0; i < rows; i++) {
            if (key.isNull(i)) {
                continue;
            }
            int g = groups[i];
            if (keys.isNull(g) || sign * keys.compare(key, i, g) > 0) {
                keys.set(g, key, i);
                values.set(g, arg, i);
            }
        }
    }

    private void keys(DataType type) {
        if (keys == null) {
            keys = new GroupValues(type);
            keys.ensureCapacity(capacity);
            for (int g = 0; g < capacity; g++) {
                keys.set(g, Col.allNull(type, 1), 0);
            }
        }
    }

    @Override
    void merge(int[] groups, int rows, Col[] states) {
        update(groups, rows, states[0], states[1]);
    }

    @Override
    void ensureCapacity(int groups) {
        if (capacity < groups) {
            int from = capacity;
            capacity = grow(capacity, groups);
            values.ensureCapacity(capacity);
            if (keys != null) {
                keys.ensureCapacity(capacity);
                Col none = Col.allNull(keys.type(), 1);
                for (int g = from; g < capacity; g++) {
                    keys.set(g, none, 0);
                }
            }
        }
    }

    @Override
    List<DataType> stateTypes() {
        return List.of(values.type(), keys == null ? DataType.NULL : keys.type());
    }

    @Override
    Col[] states(int from, int count) {
        return new Col[] {result(from, count), keys == null ? Col.allNull(DataType.NULL, count) : keys.column(from, count, null)};
    }

    @Override
    Col result(int from, int count) {
        boolean[] absent = new boolean[count];
        for (int i = 0; i < count; i++) {
            absent[i] = keys == null || keys.isNull(from + i);
        }
        return values.column(from, count, absent);
    }

    @Override
    long heapBytes() {
        return values.heapBytes() + (keys == null ? 0 : keys.heapBytes());
    }
}
