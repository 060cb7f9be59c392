package io.sluice.kernels;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.TemporalValues;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

/** Text form of values, as DuckDB prints them: ISO dates, plain decimals. */
public final class ValueFormat {
    private ValueFormat() {
    }

    /** The value at {@code row} as text; the caller checks for NULL first. */
    public static String format(Col c, int row) {
        return switch (c.type.kind()) {
            case NULL -> "";
            case BOOL -> Boolean.toString(c.bools[row]);
            case INT32, INT64 -> Long.toString(c.longs[row]);
            case FLOAT64 -> formatDouble(c.doubles[row]);
            case DECIMAL -> Int128.toBigDecimal(c.high(row), c.low(row), c.type.scale()).toPlainString();
            case UTF8 -> c.strings[row];
            case DATE32 -> LocalDate.ofEpochDay(c.longs[row]).toString();
            case TIMESTAMP -> TemporalValues.formatTimestamp(c.longs[row]);
            case STRUCT, LIST, MAP -> formatObject(c.get(row), c.type);
        };
    }

    public static String formatDouble(double d) {
        if (d == Math.rint(d) && !Double.isInfinite(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d) + ".0";
        }
        return Double.toString(d);
    }

    /**
     * A result value of a known type as text: nested values as Spark's {@code show} prints them,
     * {@code {1, x}} for a struct, {@code [1, 2]} for a list, {@code {a -> 1}} for a map, a NULL
     * inside one as {@code null}; a NULL at the top as an empty string.
     */
    public static String formatObject(Object value, DataType type) {
        if (value == null || !type.isNested()) {
            return formatObject(value);
        }
        StringBuilder out = new StringBuilder();
        appendNested(out, value, type);
        return out.toString();
    }

    private static void appendNested(StringBuilder out, Object value, DataType type) {
        if (value == null) {
            out.append("null");
            return;
        }
        switch (type.kind()) {
            case STRUCT -> {
                out.append('{');
                List<Field> fields = type.fields();
                Map<?, ?> struct = (Map<?, ?>) value;
                for (int j = 0; j < fields.size(); j++) {
                    out.append(j == 0 ? "" : ", ");
                    appendNested(out, struct.get(fields.get(j).name()), fields.get(j).type());
                }
                out.append('}');
            }
            case LIST -> {
                out.append('[');
                boolean first = true;
                for (Object element : (List<?>) value) {
                    out.append(first ? "" : ", ");
                    first = false;
                    appendNested(out, element, type.elementType());
                }
                out.append(']');
            }
            case MAP -> {
                out.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
                    out.append(first ? "" : ", ");
                    first = false;
                    appendNested(out, e.getKey(), type.keyType());
                    out.append(" -> ");
                    appendNested(out, e.getValue(), type.valueType());
                }
                out.append('}');
            }
            default -> out.append(formatObject(value));
        }
    }

    /** Any result value as text, for CSV and table output. NULL prints as an empty string. */
    public static String formatObject(Object value) {
        if (value == null) {
            return "";
        }
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (value instanceof java.time.LocalDateTime t) {
            return TemporalValues.formatTimestamp(t);
        }
        if (value instanceof Double d) {
            return formatDouble(d);
        }
        return value.toString();
    }
}
