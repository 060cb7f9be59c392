package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The statistics aggregates, implicit casts, timestamps and grouping() on the embedded cluster against
 * DuckDB, over generated Parquet data spread over four files (so partial states from several tasks
 * are merged). The statistics must agree within 1e-9 relative: the values sit near 10^8 with a spread
 * of tens, where the textbook {@code Σx² - (Σx)²/n} would lose every digit.
 */
class AnalyticFunctionsTest extends DuckDbComparisonTest {
    private static final double RELATIVE = 1e-9;

    @BeforeAll
    static void start() throws Exception {
        both = DuckDbComparison.start(data, new DuckDbComparison.Table("m", """
                SELECT i, i % 7 AS g,
                       CASE WHEN i % 13 = 0 THEN NULL ELSE 1e8 + ((i * 7919) % 1000) / 10.0 END AS x,
                       CASE WHEN i % 11 = 0 THEN NULL ELSE CAST(2 * ((i * 7919) % 1000) + (i * 104729) % 97 AS DOUBLE) END AS y,
                       CAST((i * 31) % 1000 AS INTEGER) AS k,
                       CAST(((i * 17) % 100000) / 100.0 AS DECIMAL(12, 2)) AS dec,
                       CASE WHEN i % 17 = 0 THEN NULL ELSE TIMESTAMP '2020-01-01 00:00:00' + to_seconds(i * 3607) END AS ts,
                       CAST(TIMESTAMP '2020-01-01 00:00:00' + to_seconds(i * 3607) AS TIMESTAMP_MS) AS ts_ms,
                       CAST(TIMESTAMP '2020-01-01 00:00:00' + to_seconds(i * 3607) AS TIMESTAMP_NS) AS ts_ns,
                       CAST(TIMESTAMP '2020-01-01 00:00:00' + to_seconds(i * 3607) AS DATE) AS d
                FROM range(0, 20000) r(i)""", 4));
    }

    @Test
    void statisticsAgreeWithinATolerance() throws Exception {
        assertClose("SELECT g, stddev(x), stddev_pop(x), variance(x), var_pop(x), corr(x, y), covar_samp(x, y),"
                + " covar_pop(x, y), stddev(k), var_samp(dec), corr(k, dec) FROM m GROUP BY g");
        assertClose("SELECT stddev_samp(x), var_pop(y), corr(y, k), covar_samp(k, dec), covar_pop(x, k) FROM m");
        assertClose("SELECT g, stddev(x), var_samp(k), covar_samp(x, y), var_pop(k), corr(x, y) FROM m WHERE i < 10"
                + " GROUP BY g");
        assertClose("SELECT stddev(x), corr(x, y), covar_pop(x, y) FROM m WHERE i < 0");
        assertClose("SELECT k % 3 AS r, stddev(x), corr(x, y), grouping(k % 3) FROM m GROUP BY ROLLUP (k % 3)");
    }

    @Test
    void implicitCastsAgree() throws Exception {
        both.assertSameRows("SELECT count(*) FROM m WHERE d BETWEEN '2020-03-01' AND '2020-06-30'");
        both.assertSameRows("SELECT g, count(*) FROM m WHERE d IN ('2020-01-05', '2020-02-29') OR k IN ('1', '31') GROUP BY g");
        both.assertSameRows("SELECT i, d + 30, d - 7, d - DATE '2020-01-01' FROM m WHERE i % 1000 = 0");
        both.assertSameRows("SELECT i, CASE WHEN i % 2 = 0 THEN k ELSE dec END, coalesce(x, k), k + dec, k * 1.5, dec / k"
                + " FROM m WHERE i % 997 = 0");
        both.assertSameRows("SELECT k FROM m WHERE i < 50 UNION ALL SELECT dec FROM m WHERE i < 50");
        both.assertSameRows("SELECT count(*) FROM m WHERE dec > '500.5' AND x < '100000050'");
    }

    @Test
    void timestampsAgree() throws Exception {
        both.assertSameRows("SELECT count(*), count(ts), min(ts), max(ts), min(ts_ms), max(ts_ns) FROM m");
        both.assertSameRows("SELECT date_trunc('month', ts) AS mo, count(*), min(ts), max(ts) FROM m"
                + " GROUP BY date_trunc('month', ts)");
        both.assertSameRows("SELECT extract(hour FROM ts) AS h, extract(dow FROM ts) AS w, count(*) FROM m"
                + " GROUP BY extract(hour FROM ts), extract(dow FROM ts)");
        both.assertSameRows("SELECT i, ts + INTERVAL '36' HOUR, ts - INTERVAL '1' MONTH, date_trunc('hour', ts_ns)"
                + " FROM m WHERE i % 1000 = 1");
        both.assertSameRows("SELECT count(*) FROM m WHERE ts >= '2020-05-01 12:00:00' AND ts < TIMESTAMP '2020-09-01 00:00:00'");
        both.assertSameRows("SELECT count(*) FROM m WHERE ts = ts_ms AND ts_ms = ts_ns AND CAST(ts AS DATE) = d");
        both.assertSameRows("SELECT CAST(ts AS VARCHAR), CAST(CAST(ts AS VARCHAR) AS TIMESTAMP) = ts FROM m"
                + " WHERE i % 4999 = 0");
    }

    /** Both engines' rows, sorted by their text, agree: doubles within {@link #RELATIVE}, other values exactly. */
    private static void assertClose(String sql) throws Exception {
        List<List<Object>> expected = sortedByText(both.duck().queryRaw(sql));
        List<List<Object>> actual = sortedByText(both.session().sql(sql).rows());
        assertThat(actual).as(sql).hasSameSizeAs(expected);
        for (int r = 0; r < expected.size(); r++) {
            List<Object> e = expected.get(r);
            List<Object> a = actual.get(r);
            assertThat(a).as(sql + " row " + r).hasSameSizeAs(e);
            for (int c = 0; c < e.size(); c++) {
                Object ev = e.get(c);
                Object av = a.get(c);
                String where = sql + ": row " + r + " column " + (c + 1) + ": sluice " + av + ", duckdb " + ev;
                if (ev instanceof Double ed && av instanceof Double ad) {
                    boolean close = ed.isNaN() ? ad.isNaN()
                            : Math.abs(ed - ad) <= RELATIVE * Math.max(Math.abs(ed), Math.abs(ad));
                    assertThat(close).as(where).isTrue();
                } else {
                    assertThat(DuckDbOracle.normalize(av)).as(where).isEqualTo(DuckDbOracle.normalize(ev));
                }
            }
        }
    }

    /** Rows ordered by their leading key values (the group keys come first in every query here). */
    private static List<List<Object>> sortedByText(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(row -> String.valueOf(DuckDbOracle.normalize(row.get(0)))));
        return copy;
    }
}
