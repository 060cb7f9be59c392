package io.sluice.kernels;

import io.sluice.common.types.TemporalValues;
import java.math.BigDecimal;
import java.time.LocalDate;

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
            case STRUCT, LIST, MAP -> formatObject(c.get(row));
        };
    }

    public static String formatDouble(double d) {
        if (d == Math.rint(d) && !Double.isInfinite(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d) + ".0";
        }
        return Double.toString(d);
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
