package io.sluice.tpch;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Puts query answers from two engines into one comparable form: integers as longs, decimals without
 * trailing zeros, floating point rounded to 9 significant digits, dates as ISO text, NULL as null.
 * Used wherever Sluice's answers are checked against a peer engine (tests and the TPC-H benchmark).
 */
public final class Answers {
    private static final MathContext SIGNIFICANT = new MathContext(9);

    private Answers() {
    }

    /** Every value of every row normalized. */
    public static List<List<Object>> normalize(List<List<Object>> rows) {
        List<List<Object>> out = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            List<Object> normalized = new ArrayList<>(row.size());
            for (Object value : row) {
                normalized.add(normalize(value));
            }
            out.add(normalized);
        }
        return out;
    }

    /** One value in the comparable form. */
    public static Object normalize(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof BigInteger b) {
            return b.bitLength() < 64 ? (Object) b.longValue() : b.toString();
        }
        if (value instanceof BigDecimal d) {
            BigDecimal stripped = d.stripTrailingZeros();
            if (stripped.scale() <= 0) {
                BigInteger whole = stripped.toBigIntegerExact();
                return whole.bitLength() < 64 ? (Object) whole.longValue() : whole.toString(); // a long, else its digits
            }
            return stripped.toPlainString();
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                return Double.toString(d);
            }
            if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                return (long) d;
            }
            return new BigDecimal(d).round(SIGNIFICANT).stripTrailingZeros().toPlainString();
        }
        if (value instanceof java.sql.Timestamp t) {
            return t.toLocalDateTime().toString(); // DuckDB's JDBC timestamps, as Sluice's LocalDateTime prints
        }
        return value.toString();
    }

    /** Rows in a canonical order, for answers whose order the query does not fully fix. */
    public static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(Object::toString));
        return copy;
    }
}
