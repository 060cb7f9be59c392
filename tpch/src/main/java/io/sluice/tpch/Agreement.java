package io.sluice.tpch;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Whether two engines' normalized answers (see {@link Answers}) to one query agree.
 *
 * <p>Verdicts: {@code "yes"} when equal; {@code "yes~"} when equal but for numbers within
 * {@value #ABSOLUTE} absolute plus {@value #RELATIVE} relative, the gap between a decimal average
 * (Spark and Sluice: DECIMAL with 6 digits of scale) and a double one rounded to 9 significant digits
 * (DuckDB); {@code "NO: ..."} naming the difference otherwise. Row order counts only when the query
 * has an ORDER BY.
 */
public final class Agreement {
    public static final double ABSOLUTE = 1e-6;
    public static final double RELATIVE = 1e-8;
    private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?");

    private Agreement() {
    }

    /** The verdict on {@code actual} against {@code expected}, the answers to {@code sql}. */
    public static String of(List<List<Object>> actual, List<List<Object>> expected, String sql) {
        if (actual.equals(expected)) {
            return "yes";
        }
        if (close(actual, expected)) {
            return "yes~";
        }
        List<List<Object>> actualSorted = Answers.sorted(actual);
        List<List<Object>> expectedSorted = Answers.sorted(expected);
        boolean exact = actualSorted.equals(expectedSorted);
        if (exact || close(actualSorted, expectedSorted)) {
            if (sql.toLowerCase(Locale.ROOT).contains("order by")) {
                return "NO: order differs";
            }
            return exact ? "yes" : "yes~";
        }
        return "NO: " + actual.size() + " vs " + expected.size() + " rows"
                + (actual.isEmpty() || expected.isEmpty() ? "" : ", first " + actual.get(0) + " vs " + expected.get(0));
    }

    private static boolean close(List<List<Object>> actual, List<List<Object>> expected) {
        if (actual.size() != expected.size()) {
            return false;
        }
        for (int row = 0; row < actual.size(); row++) {
            List<Object> a = actual.get(row);
            List<Object> e = expected.get(row);
            if (a.size() != e.size()) {
                return false;
            }
            for (int column = 0; column < a.size(); column++) {
                if (!close(a.get(column), e.get(column))) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean close(Object actual, Object expected) {
        if (Objects.equals(actual, expected)) {
            return true;
        }
        BigDecimal a = number(actual);
        BigDecimal e = number(expected);
        if (a == null || e == null) {
            return false;
        }
        double gap = a.subtract(e).abs().doubleValue();
        return gap <= ABSOLUTE + RELATIVE * Math.max(a.abs().doubleValue(), e.abs().doubleValue());
    }

    /** A normalized number (a long or a decimal string), else null. */
    private static BigDecimal number(Object value) {
        if (value instanceof Long l) {
            return BigDecimal.valueOf(l);
        }
        return value instanceof String s && NUMBER.matcher(s).matches() ? new BigDecimal(s) : null;
    }
}
