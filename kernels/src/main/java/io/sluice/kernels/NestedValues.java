package io.sluice.kernels;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.TemporalValues;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * Nested values (STRUCT, LIST, MAP) between Java objects and Arrow vectors: the one place that
 * builds a nested Arrow vector from values and reads one back, for every source of nested data
 * (Parquet, JSON) and for {@link Col}'s nested columns.
 *
 * <p>The Java form, which results return and {@link Col#objects} holds: a STRUCT value is an
 * unmodifiable {@code Map<String, Object>} of its fields in order, a LIST an unmodifiable
 * {@code List}, a MAP an unmodifiable {@code Map} in entry order; scalars inside them as
 * {@link Col#get} returns them (Integer, Long, Double, BigDecimal, String, Boolean, LocalDate,
 * LocalDateTime); NULL is {@code null}. {@link #of} also takes a struct as a {@code List} or
 * {@code Object[]} of its field values in order, and any {@code Number} for a number, so a reader
 * can hand over what it parsed.
 */
public final class NestedValues {
    private NestedValues() {
    }

    /**
     * A column of the given type (scalar or nested) from Java values, null for NULL; a value of the
     * wrong kind fails naming the type.
     */
    public static Col of(DataType type, Object[] values) {
        int n = values.length;
        boolean[] nulls = null;
        for (int i = 0; i < n; i++) {
            if (values[i] == null) {
                if (nulls == null) {
                    nulls = new boolean[n];
                }
                nulls[i] = true;
            }
        }
        switch (type.kind()) {
            case NULL:
                return Col.allNull(type, n);
            case BOOL: {
                boolean[] out = new boolean[n];
                for (int i = 0; i < n; i++) {
                    out[i] = values[i] != null && (Boolean) values[i];
                }
                return Col.ofBools(out, nulls);
            }
            case FLOAT64: {
                double[] out = new double[n];
                for (int i = 0; i < n; i++) {
                    out[i] = values[i] == null ? 0 : number(values[i], type).doubleValue();
                }
                return Col.ofDoubles(out, nulls);
            }
            case UTF8: {
                String[] out = new String[n];
                for (int i = 0; i < n; i++) {
                    out[i] = values[i] == null ? null : values[i].toString();
                }
                return Col.ofStrings(out, nulls);
            }
            case DECIMAL: {
                long[] highs = new long[n];
                long[] lows = new long[n];
                for (int i = 0; i < n; i++) {
                    if (values[i] != null) {
                        BigInteger unscaled = decimal(values[i], type).unscaledValue();
                        highs[i] = Int128.high(unscaled);
                        lows[i] = Int128.low(unscaled);
                    }
                }
                return Col.ofInt128(type, highs, lows, nulls);
            }
            case INT32, INT64, DATE32, TIMESTAMP: {
                long[] out = new long[n];
                for (int i = 0; i < n; i++) {
                    if (values[i] != null) {
                        out[i] = longValue(values[i], type);
                    }
                }
                return Col.ofLongs(type, out, nulls);
            }
            case STRUCT, LIST, MAP: {
                Object[] out = new Object[n];
                for (int i = 0; i < n; i++) {
                    out[i] = canonical(values[i], type);
                }
                return Col.ofObjects(type, out, nulls);
            }
            default:
                throw new IllegalStateException("unhandled type " + type);
        }
    }

    /** A value in the Java form of its type (see the class comment); fails naming the type when it cannot be. */
    public static Object canonical(Object value, DataType type) {
        if (value == null) {
            return null;
        }
        return switch (type.kind()) {
            case STRUCT -> {
                List<Field> fields = type.fields();
                Map<String, Object> out = new LinkedHashMap<>();
                for (int j = 0; j < fields.size(); j++) {
                    out.put(fields.get(j).name(), canonical(structField(value, j, fields.get(j).name(), type), fields.get(j).type()));
                }
                yield Collections.unmodifiableMap(out);
            }
            case LIST -> {
                if (!(value instanceof List<?> list)) {
                    throw mismatch(value, type);
                }
                Object[] out = new Object[list.size()];
                for (int k = 0; k < out.length; k++) {
                    out[k] = canonical(list.get(k), type.elementType());
                }
                yield Collections.unmodifiableList(Arrays.asList(out));
            }
            case MAP -> {
                if (!(value instanceof Map<?, ?> map)) {
                    throw mismatch(value, type);
                }
                Map<Object, Object> out = new LinkedHashMap<>();
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    if (e.getKey() == null) {
                        throw new SluiceException("a map key is NULL in a value of type " + type.sqlName());
                    }
                    out.put(canonical(e.getKey(), type.keyType()), canonical(e.getValue(), type.valueType()));
                }
                yield Collections.unmodifiableMap(out);
            }
            default -> of(type, new Object[] {value}).get(0);
        };
    }

    private static Object structField(Object value, int index, String name, DataType type) {
        if (value instanceof Map<?, ?> map) {
            return map.get(name);
        }
        if (value instanceof List<?> list && list.size() == type.fields().size()) {
            return list.get(index);
        }
        if (value instanceof Object[] array && array.length == type.fields().size()) {
            return array[index];
        }
        throw mismatch(value, type);
    }

    private static long longValue(Object value, DataType type) {
        return switch (type.kind()) {
            case DATE32 -> value instanceof LocalDate d ? d.toEpochDay() : number(value, type).longValue();
            case TIMESTAMP -> value instanceof LocalDateTime t ? TemporalValues.of(t) : number(value, type).longValue();
            default -> {
                Number n = number(value, type);
                if (n instanceof Double || n instanceof Float || n instanceof BigDecimal) {
                    throw mismatch(value, type);
                }
                long v = n.longValue();
                if (type.kind() == DataType.Kind.INT32 && v != (int) v) {
                    throw new SluiceException("value " + v + " does not fit " + type.sqlName());
                }
                yield v;
            }
        };
    }

    private static Number number(Object value, DataType type) {
        if (value instanceof Number n) {
            return n;
        }
        throw mismatch(value, type);
    }

    private static BigDecimal decimal(Object value, DataType type) {
        BigDecimal d = value instanceof BigDecimal b ? b
                : value instanceof BigInteger b ? new BigDecimal(b)
                : value instanceof Long || value instanceof Integer ? BigDecimal.valueOf(((Number) value).longValue())
                : null;
        if (d == null) {
            throw mismatch(value, type);
        }
        BigDecimal scaled = d.setScale(type.scale(), RoundingMode.HALF_UP);
        if (scaled.precision() > type.precision() && scaled.signum() != 0) {
            throw new SluiceException("value " + d + " does not fit " + type.sqlName());
        }
        return scaled;
    }

    private static SluiceException mismatch(Object value, DataType type) {
        String text = String.valueOf(value);
        return new SluiceException("value " + (text.length() > 60 ? text.substring(0, 60) + "..." : text)
                + " is not of type " + type.sqlName());
    }

    /** The rows of a nested vector in the Java form, null where NULL. */
    public static Object[] read(FieldVector vector, DataType type) {
        int n = vector.getValueCount();
        Object[] out = new Object[n];
        switch (type.kind()) {
            case STRUCT -> {
                StructVector struct = (StructVector) vector;
                List<Field> fields = type.fields();
                Col[] children = new Col[fields.size()];
                for (int j = 0; j < children.length; j++) {
                    children[j] = Col.read((FieldVector) struct.getChildByOrdinal(j), fields.get(j).type());
                }
                for (int i = 0; i < n; i++) {
                    if (!struct.isNull(i)) {
                        Map<String, Object> value = new LinkedHashMap<>();
                        for (int j = 0; j < children.length; j++) {
                            value.put(fields.get(j).name(), children[j].get(i));
                        }
                        out[i] = Collections.unmodifiableMap(value);
                    }
                }
            }
            case LIST -> {
                ListVector list = (ListVector) vector;
                Col elements = Col.read(list.getDataVector(), type.elementType());
                for (int i = 0; i < n; i++) {
                    if (!list.isNull(i)) {
                        int from = list.getElementStartIndex(i);
                        int to = list.getElementEndIndex(i);
                        Object[] value = new Object[to - from];
                        for (int k = from; k < to; k++) {
                            value[k - from] = elements.get(k);
                        }
                        out[i] = Collections.unmodifiableList(Arrays.asList(value));
                    }
                }
            }
            case MAP -> {
                MapVector map = (MapVector) vector;
                StructVector entries = (StructVector) map.getDataVector();
                Col keys = Col.read((FieldVector) entries.getChildByOrdinal(0), type.keyType());
                Col values = Col.read((FieldVector) entries.getChildByOrdinal(1), type.valueType());
                for (int i = 0; i < n; i++) {
                    if (!map.isNull(i)) {
                        Map<Object, Object> value = new LinkedHashMap<>();
                        for (int k = map.getElementStartIndex(i); k < map.getElementEndIndex(i); k++) {
                            value.put(keys.get(k), values.get(k));
                        }
                        out[i] = Collections.unmodifiableMap(value);
                    }
                }
            }
            default -> throw new IllegalStateException("not a nested type: " + type);
        }
        return out;
    }

    /** Writes {@code n} values in the Java form (null for NULL) into a new nested vector of {@code type}. */
    static void fill(FieldVector vector, DataType type, Object[] values, int n) {
        switch (type.kind()) {
            case STRUCT -> {
                StructVector struct = (StructVector) vector;
                struct.allocateNew();
                List<Field> fields = type.fields();
                for (int i = 0; i < n; i++) {
                    if (values[i] == null) {
                        struct.setNull(i);
                    } else {
                        struct.setIndexDefined(i);
                    }
                }
                for (int j = 0; j < fields.size(); j++) {
                    Object[] child = new Object[n];
                    for (int i = 0; i < n; i++) {
                        if (values[i] != null) {
                            child[i] = structField(values[i], j, fields.get(j).name(), type);
                        }
                    }
                    of(fields.get(j).type(), child).fill((FieldVector) struct.getChildByOrdinal(j));
                }
                struct.setValueCount(n);
            }
            case LIST, MAP -> {
                ListVector list = (ListVector) vector;
                list.allocateNew();
                List<Object> elements = new ArrayList<>();
                List<Object> mapValues = type.kind() == DataType.Kind.MAP ? new ArrayList<>() : null;
                for (int i = 0; i < n; i++) {
                    if (values[i] == null) {
                        list.setNull(i);
                        continue;
                    }
                    list.startNewValue(i);
                    int size;
                    if (mapValues == null) {
                        List<?> value = (List<?>) values[i];
                        elements.addAll(value);
                        size = value.size();
                    } else {
                        Map<?, ?> value = (Map<?, ?>) values[i];
                        for (Map.Entry<?, ?> e : value.entrySet()) {
                            elements.add(e.getKey());
                            mapValues.add(e.getValue());
                        }
                        size = value.size();
                    }
                    list.endValue(i, size);
                }
                if (mapValues == null) {
                    of(type.elementType(), elements.toArray()).fill(list.getDataVector());
                } else {
                    StructVector entries = (StructVector) list.getDataVector();
                    entries.allocateNew();
                    for (int k = 0; k < elements.size(); k++) {
                        entries.setIndexDefined(k);
                    }
                    of(type.keyType(), elements.toArray()).fill((FieldVector) entries.getChildByOrdinal(0));
                    of(type.valueType(), mapValues.toArray()).fill((FieldVector) entries.getChildByOrdinal(1));
                    entries.setValueCount(elements.size());
                }
                list.setValueCount(n);
            }
            default -> throw new IllegalStateException("not a nested type: " + type);
        }
    }
}
