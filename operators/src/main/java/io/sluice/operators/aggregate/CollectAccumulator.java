package io.sluice.operators.aggregate;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.kernels.NestedValues;
import io.sluice.operators.memory.HeapSize;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * {@code collect_list(x)} and {@code collect_set(x)}: a group's values that are not NULL, as an
 * array (in arrival order; a set without repeats). The values are the array's Java form (boxed):
 * this aggregate exists to materialize them. State: the array so far. Memory is counted per value
 * held (a string by its length), so the aggregate's reservation grows with what it keeps.
 */
final class CollectAccumulator extends Accumulator {
    private static final long BOXED = 24;
    private final DataType listType;
    private final boolean set;
    private Collection<Object>[] groups = newArray(0);
    private long bytes;

    CollectAccumulator(DataType elementType, boolean set) {
        this.listType = DataType.list(elementType.kind() == DataType.Kind.NULL ? DataType.INT32 : elementType);
        this.set = set;
    }

    @SuppressWarnings("unchecked")
    private static Collection<Object>[] newArray(int n) {
        return (Collection<Object>[]) new Collection<?>[n];
    }

    private Collection<Object> group(int g) {
        Collection<Object> c = groups[g];
        if (c == null) {
            c = set ? new LinkedHashSet<>() : new ArrayList<>();
            groups[g] = c;
            bytes += 64;
        }
        return c;
    }

    @Override
    void update(int[] groups, int rows, Col arg) {
        if (arg.type.kind() == DataType.Kind.NULL) {
            return;
        }
        for (int i = 0; i < rows; i++) {
            if (!arg.isNull(i)) {
                add(group(groups[i]), arg.get(i));
            }
        }
    }

    private void add(Collection<Object> c, Object value) {
        if (c.add(value)) {
            bytes += value instanceof String s ? HeapSize.string(s) + 8 : BOXED + 8;
        }
    }

    @Override
    void merge(int[] groups, int rows, Col[] states) {
        Col lists = states[0];
        for (int i = 0; i < rows; i++) {
            if (!lists.isNull(i)) {
                Collection<Object> c = group(groups[i]);
                for (Object v : (List<?>) lists.objects[i]) {
                    add(c, v);
                }
            }
        }
    }

    @Override
    void ensureCapacity(int groups) {
        if (this.groups.length < groups) {
            this.groups = Arrays.copyOf(this.groups, grow(this.groups.length, groups));
        }
    }

    @Override
    List<DataType> stateTypes() {
        return List.of(listType);
    }

    @Override
    Col[] states(int from, int count) {
        return new Col[] {result(from, count)};
    }

    @Override
    Col result(int from, int count) {
        Object[] values = new Object[count];
        for (int i = 0; i < count; i++) {
            Collection<Object> c = groups[from + i];
            values[i] = c == null ? List.of() : new ArrayList<>(c);
        }
        return NestedValues.of(listType, values);
    }

    @Override
    long heapBytes() {
        return HeapSize.references(groups.length) + bytes;
    }
}
