package io.sluice.operators.aggregate;

import io.sluice.common.types.DataType;
import io.sluice.common.types.DataType.Kind;
import io.sluice.kernels.Col;
import io.sluice.kernels.Int128;
import io.sluice.kernels.NestedValues;
import io.sluice.operators.memory.HeapSize;
import java.util.Arrays;

/**
 * One value per group of any type, in the array its kind is held in (longs, doubles, booleans,
 * strings, wide decimals, nested objects), so that an accumulator keeping a chosen row's value
 * ({@code first}, {@code last}, {@code max_by}) copies it without boxing.
 */
final class GroupValues {
    private static final long TYPICAL_STRING = 64;
    private final DataType type;
    private long[] longs;
    private long[] highs;
    private double[] doubles;
    private boolean[] bools;
    private Object[] objects; // strings and nested values
    private boolean[] nulls = new boolean[0];

    GroupValues(DataType type) {
        this.type = type;
        switch (type.kind()) {
            case FLOAT64 -> doubles = new double[0];
            case BOOL, NULL -> bools = new boolean[0];
            case UTF8, STRUCT, LIST, MAP -> objects = new Object[0];
            default -> longs = new long[0];
        }
        if (type.isWideDecimal()) {
            highs = new long[0];
        }
    }

    DataType type() {
        return type;
    }

    void ensureCapacity(int size) {
        if (nulls.length >= size) {
            return;
        }
        nulls = Arrays.copyOf(nulls, size);
        if (longs != null) longs = Arrays.copyOf(longs, size);
        if (highs != null) highs = Arrays.copyOf(highs, size);
        if (doubles != null) doubles = Arrays.copyOf(doubles, size);
        if (bools != null) bools = Arrays.copyOf(bools, size);
        if (objects != null) objects = Arrays.copyOf(objects, size);
    }

    /** Group {@code g} takes {@code c}'s value at {@code row} (NULL included). */
    void set(int g, Col c, int row) {
        boolean isNull = c.isNull(row) || c.type.kind() == Kind.NULL;
        nulls[g] = isNull;
        if (isNull) {
            return;
        }
        switch (type.kind()) {
            case FLOAT64 -> doubles[g] = c.doubles[row];
            case BOOL, NULL -> bools[g] = c.bools[row];
            case UTF8 -> objects[g] = c.strings[row];
            case STRUCT, LIST, MAP -> objects[g] = c.objects[row];
            default -> {
                longs[g] = c.low(row);
                if (highs != null) {
                    highs[g] = c.high(row);
                }
            }
        }
    }

    /** Compares {@code c}'s non-NULL value at {@code row} with group {@code g}'s non-NULL value. */
    int compare(Col c, int row, int g) {
        return switch (type.kind()) {
            case FLOAT64 -> Double.compare(c.doubles[row], doubles[g]);
            case BOOL -> Boolean.compare(c.bools[row], bools[g]);
            case UTF8 -> c.strings[row].compareTo((String) objects[g]);
            case STRUCT, LIST, MAP, NULL -> throw new IllegalStateException("not comparable: " + type);
            default -> highs != null ? Int128.compare(c.high(row), c.low(row), highs[g], longs[g])
                    : Long.compare(c.longs[row], longs[g]);
        };
    }

    boolean isNull(int g) {
        return nulls[g];
    }

    /** Groups {@code [from, from + count)} as a column; {@code absent} (may be null) adds NULLs. */
    Col column(int from, int count, boolean[] absent) {
        boolean[] n = Arrays.copyOfRange(nulls, from, from + count);
        if (absent != null) {
            for (int i = 0; i < count; i++) {
                n[i] |= absent[i];
            }
        }
        return switch (type.kind()) {
            case FLOAT64 -> Col.ofDoubles(Arrays.copyOfRange(doubles, from, from + count), n);
            case BOOL, NULL -> Col.ofBools(Arrays.copyOfRange(bools, from, from + count), n).withType(type);
            case UTF8 -> Col.ofStrings(Arrays.copyOfRange(objects, from, from + count, String[].class), n);
            case STRUCT, LIST, MAP -> {
                Object[] values = Arrays.copyOfRange(objects, from, from + count);
                for (int i = 0; i < count; i++) {
                    values[i] = n[i] ? null : values[i];
                }
                yield NestedValues.of(type, values);
            }
            default -> highs != null
                    ? Col.ofInt128(type, Arrays.copyOfRange(highs, from, from + count), Arrays.copyOfRange(longs, from, from + count), n)
                    : Col.ofLongs(type, Arrays.copyOfRange(longs, from, from + count), n);
        };
    }

    /** Strings and nested values counted at a typical short string's size. */
    long heapBytes() {
        int n = nulls.length;
        long values = objects != null ? HeapSize.references(n) + TYPICAL_STRING * (long) n
                : (longs != null ? HeapSize.longs(n) : 0) + (highs != null ? HeapSize.longs(n) : 0)
                        + (doubles != null ? HeapSize.longs(n) : 0) + (bools != null ? HeapSize.booleans(n) : 0);
        return HeapSize.booleans(n) + values;
    }
}
