package io.sluice.tpch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * The 22 TPC-H queries in the specification's text with its validation parameters. The only
 * departure the specification itself permits is Q15, written with {@code WITH} instead of a view.
 * Row limits the specification states in prose ("first 100 rows") are written as {@code LIMIT}.
 * Sluice runs this text as it is; {@link #forPeer} gives the peers (DuckDB, Spark) the same query
 * in the one spelling their parsers refuse.
 */
public final class TpchQueries {
    /** Number of queries in the benchmark. */
    public static final int COUNT = 22;

    /** Q11's FRACTION at scale factor 1, as written in q11.sql. */
    private static final String Q11_FRACTION = "* 0.0001\n";

    private TpchQueries() {
    }

    /** The text of query {@code number} (1 to 22). */
    public static String text(int number) {
        if (number < 1 || number > COUNT) {
            throw new IllegalArgumentException("TPC-H has queries 1 to 22, not " + number);
        }
        String resource = "q" + number + ".sql";
        try (InputStream in = TpchQueries.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource io/sluice/tpch/" + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The text of query {@code number} with its scale-dependent substitution parameter for
     * {@code scaleFactor}: the specification sets Q11's FRACTION to 0.0001 / SF (2.4.11.3), so at
     * SF 10 the query keeps the parts above 0.00001 of the total rather than returning no row.
     * Every other query's validation parameters do not depend on the scale.
     */
    public static String text(int number, double scaleFactor) {
        if (!(scaleFactor > 0)) {
            throw new IllegalArgumentException("scale factor must be positive, not " + scaleFactor);
        }
        String text = text(number);
        if (number != 11 || scaleFactor == 1) {
            return text;
        }
        String fraction = new BigDecimal("0.0001").divide(BigDecimal.valueOf(scaleFactor), MathContext.DECIMAL64)
                .stripTrailingZeros().toPlainString();
        String substituted = text.replace(Q11_FRACTION, "* " + fraction + "\n");
        if (substituted.equals(text)) {
            throw new IllegalStateException("q11.sql no longer holds its FRACTION '" + Q11_FRACTION.strip() + "'");
        }
        return substituted;
    }

    /** An interval's leading-field precision, {@code interval '90' day (3)} in Q1. */
    private static final Pattern INTERVAL_PRECISION = Pattern.compile(
            "(?i)(interval\\s+'[^']*'\\s+(?:year|month|day|hour|minute))\\s*\\(\\s*\\d+\\s*\\)");

    /**
     * The query as a peer engine accepts it: DuckDB and Spark do not parse the SQL standard's
     * precision of an interval's leading field (Q1's {@code day (3)}), which changes no value, so it
     * is dropped. Nothing else is rewritten.
     */
    public static String forPeer(String text) {
        return INTERVAL_PRECISION.matcher(text).replaceAll("$1");
    }

    /** The numbers 1 to 22. */
    public static int[] all() {
        return IntStream.rangeClosed(1, COUNT).toArray();
    }
}
