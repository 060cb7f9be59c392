package io.sluice.operators.aggregate;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.operators.memory.HeapSize;
import java.util.Arrays;
import java.util.List;

/**
 * {@code first(x[, ignoreNulls])} and {@code last(x[, ignoreNulls])}: the value of the first (last)
 * row a group sees, skipping NULLs when asked. As in Spark, which row is first depends on the order
 * rows arrive in, which a shuffle does not fix. State: the value and whether one was taken.
 */
final class FirstLastAccumulator extends Accumulator {
    private final GroupValues values;
    private final boolean last;
    private final boolean ignoreNulls;
    private boolean[] taken = new boolean[0];

    FirstLastAccumulator(DataType type, boolean last, boolean ignoreNulls) {
        this.values = new GroupValues(type);
        this.last = last;
        this.ignoreNulls = ignoreNulls;
    }

    @Override
    void update(int[] groups, int rows, Col arg) {
        for (int i = 0; i < rows; i++) {
            int g = groups[i];
            if ((last || !taken[g]) && !(ignoreNulls && arg.isNull(i))) {
                values.set(g, arg, i);
                taken[g] = true;
            }
        }
    }

    @Override
    void merge(int[] groups, int rows, Col[] states) {
        Col value = states[0];
        boolean[] stateTaken = states[1].bools;
        for (int i = 0; i < rows; i++) {
            int g = groups[i];
            if (stateTaken[i] && (last || !taken[g])) {
                values.set(g, value, i);
                taken[g] = true;
            }
        }
    }

    @Override
    void ensureCapacity(int groups) {
        if (taken.length < groups) {
            taken = Arrays.copyOf(taken, grow(taken.length, groups));
            values.ensureCapacity(taken.length);
        }
    }

    @Override
    List<DataType> stateTypes() {
        return List.of(values.type(), DataType.BOOL);
    }

    @Override
    Col[] states(int from, int count) {
        return new Col[] {result(from, count), Col.ofBools(Arrays.copyOfRange(taken, from, from + count), null)};
    }

    @Override
    Col result(int from, int count) {
        boolean[] absent = new boolean[count];
        for (int i = 0; i < count; i++) {
            absent[i] = !taken[from + i];
        }
        return values.column(from, count, absent);
    }

    @Override
    long heapBytes() {
        return values.heapBytes() + HeapSize.booleans(taken.length);
    }
}
