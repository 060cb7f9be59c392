package io.sluice.operators.function;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.kernels.NestedValues;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The array functions' kernels, over arrays' Java form (nested values are payload, not a scan's hot loop). */
final class ArrayKernels {
    private ArrayKernels() {
    }

    /** The kernel of {@code name}, or null when it is not an array function. */
    static FunctionKernel of(String name) {
        return switch (name) {
            case "sort_array" -> ArrayKernels::sortArray;
            case "array_contains" -> ArrayKernels::arrayContains;
            default -> null;
        };
    }

    /** Elements in natural order, NULLs first ascending and last descending, as Spark. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Col sortArray(List<Col> args, int rows, DataType type) {
        Col in = args.get(0);
        boolean[] ascending = args.size() > 1 ? args.get(1).bools : null;
        Object[] values = new Object[rows];
        for (int row = 0; row < rows; row++) {
            if (in.isNull(row) || Values.nullAt(args, 1, row)) {
                continue;
            }
            List<Object> copy = new ArrayList<>((List<?>) in.objects[row]);
            Comparator<Object> natural = Comparator.nullsFirst((a, b) -> ((Comparable) a).compareTo(b));
            copy.sort(ascending == null || ascending[row] ? natural : natural.reversed());
            values[row] = copy;
        }
        return NestedValues.of(type, values);
    }

    private static Col arrayContains(List<Col> args, int rows, DataType type) {
        Col in = args.get(0);
        Col value = args.get(1);
        Col out = Col.allocate(DataType.BOOL, rows, true);
        for (int row = 0; row < rows; row++) {
            if (Values.anyNull(args, row)) {
                out.nulls[row] = true;
                continue;
            }
            Object wanted = NestedValues.canonical(value.get(row), in.type.elementType());
            boolean found = false;
            boolean sawNull = false;
            for (Object e : (List<?>) in.objects[row]) {
                found |= wanted.equals(e);
                sawNull |= e == null;
            }
            out.bools[row] = found;
            out.nulls[row] = !found && sawNull; // Spark: unknown when absent but a NULL element exists
        }
        return out;
    }
}
