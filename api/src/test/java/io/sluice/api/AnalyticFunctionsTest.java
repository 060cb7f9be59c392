package io.sluice.api;

import static io.sluice.api.Functions.col;
import static io.sluice.api.Functions.corr;
import static io.sluice.api.Functions.covarPop;
import static io.sluice.api.Functions.covarSamp;
import static io.sluice.api.Functions.stddev;
import static io.sluice.api.Functions.stddevPop;
import static io.sluice.api.Functions.varPop;
import static io.sluice.api.Functions.variance;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testfixtures.DuckDbOracle;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The statistics aggregates, implicit casts, timestamps and grouping() on the embedded cluster against
 * DuckDB, over generated Parquet data spread over four files (so partial states from several tasks
 * are merged). The statistics must agree within 1e-9 relative: x sits near 10^8 with a spread of
 * tens, where the textbook {@code Σx² - (Σx)²/n} would lose every digit.
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
                + " covar_pop(y, x), stddev(k), var_samp(dec), var_pop(y) FROM m GROUP BY g");
        assertClose("SELECT stddev_samp(x), var_pop(y), corr(y, x), stddev_pop(dec), covar_pop(x, y) FROM m");
        assertClose("SELECT g, stddev(x), var_samp(k), covar_samp(x, y), var_pop(k), corr(x, y) FROM m WHERE i < 10"
                + " GROUP BY g");
        assertClose("SELECT stddev(x), corr(x, y), covar_pop(x, y) FROM m WHERE i < 0");
        assertClose("SELECT k % 3 AS r, stddev(x), corr(x, y), grouping(k % 3) FROM m GROUP BY ROLLUP (k % 3)");
    }

    /**
     * Nearly uncorrelated pairs, one of them near 10^8: the covariance is a small difference of large
     * products, so its double value depends on the order of the operations (DuckDB's own result is
     * off by about 3e-9 relative here). Checked against the exact value instead, computed with
     * BigDecimal from the very doubles DuckDB reads: the pivot makes Sluice's result exact to 1e-12.
     */
    @Test
    void illConditionedCovariancesAreExact() throws Exception {
        Map<Object, double[]> exact = exactMoments(both.duck().queryRaw("SELECT g, x, k FROM m"));
        List<List<Object>> rows = both.session()
                .sql("SELECT g, covar_samp(x, k), covar_pop(x, k), corr(x, k), var_samp(x) FROM m GROUP BY g").collect().rows();
        assertThat(rows).hasSize(exact.size());
        for (List<Object> row : rows) {
            double[] e = exact.get(((Number) row.get(0)).longValue());
            for (int c = 0; c < e.length; c++) {
                double actual = (Double) row.get(c + 1);
                assertThat(Math.abs(actual - e[c]) <= 1e-12 * Math.abs(e[c]))
                        .as("group " + row.get(0) + " column " + (c + 2) + ": sluice " + actual + ", exact " + e[c]).isTrue();
            }
        }
    }

    /** Per group (first column): covar_samp, covar_pop and corr of the other two columns and var_samp of the first, exactly. */
    private static Map<Object, double[]> exactMoments(List<List<Object>> rows) {
        MathContext mc = new MathContext(50);
        Map<Object, List<BigDecimal[]>> groups = new HashMap<>();
        for (List<Object> row : rows) {
            if (row.get(1) != null && row.get(2) != null) {
                groups.computeIfAbsent(((Number) row.get(0)).longValue(), g -> new ArrayList<>()).add(new BigDecimal[] {
                        new BigDecimal(((Number) row.get(1)).doubleValue()), new BigDecimal(((Number) row.get(2)).doubleValue())});
            }
        }
        Map<Object, double[]> out = new HashMap<>();
        groups.forEach((g, pairs) -> {
            BigDecimal n = BigDecimal.valueOf(pairs.size());
            BigDecimal sumA = BigDecimal.ZERO;
            BigDecimal sumB = BigDecimal.ZERO;
            for (BigDecimal[] p : pairs) {
                sumA = sumA.add(p[0]);
                sumB = sumB.add(p[1]);
            }
            BigDecimal meanA = sumA.divide(n, mc);
            BigDecimal meanB = sumB.divide(n, mc);
            BigDecimal co = BigDecimal.ZERO;
            BigDecimal m2a = BigDecimal.ZERO;
            BigDecimal m2b = BigDecimal.ZERO;
            for (BigDecimal[] p : pairs) {
                BigDecimal da = p[0].subtract(meanA);
                BigDecimal db = p[1].subtract(meanB);
                co = co.add(da.multiply(db));
                m2a = m2a.add(da.multiply(da));
                m2b = m2b.add(db.multiply(db));
            }
            BigDecimal nMinus1 = n.subtract(BigDecimal.ONE);
            out.put(g, new double[] {co.divide(nMinus1, mc).doubleValue(), co.divide(n, mc).doubleValue(),
                    co.divide(m2a.multiply(m2b).sqrt(mc), mc).doubleValue(), m2a.divide(nMinus1, mc).doubleValue()});
        });
        return out;
    }

    @Test
    void implicitCastsAgree() throws Exception {
        both.assertSameRows("SELECT count(*) FROM m WHERE d BETWEEN '2020-03-01' AND '2020-06-30'");
        both.assertSameRows("SELECT g, count(*) FROM m WHERE d IN ('2020-01-05', '2020-02-29') OR k IN ('1', '31') GROUP BY g");
        both.assertSameRows("SELECT i, d + 30, d - 7, d - DATE '2020-01-01' FROM m WHERE i % 1000 = 0");
        both.assertSameRows("SELECT i, CASE WHEN i % 2 = 0 THEN k ELSE dec END, coalesce(x, k), k + dec, k * 1.5, dec / (k + 1)"
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

    @Test
    void dataFrameStatisticsAgree() throws Exception {
        DataFrame m = both.session().read().parquet(data.resolve("m").toString());
        List<List<Object>> rows = m.groupBy("g")
                .agg(stddev(col("x")), stddevPop(col("x")), variance(col("y")), varPop(col("y")), corr(col("x"), col("y")),
                        covarSamp(col("x"), col("y")), covarPop(col("y"), col("x")))
                .collect().rows();
        assertClose("SELECT g, stddev(x), stddev_pop(x), variance(y), var_pop(y), corr(x, y), covar_samp(x, y),"
                + " covar_pop(y, x) FROM m GROUP BY g", rows);
    }

    private static void assertClose(String sql) throws Exception {
        assertClose(sql, both.session().sql(sql).collect().rows());
    }

    /** Both engines' rows, sorted by their text, agree: doubles within {@link #RELATIVE}, other values exactly. */
    private static void assertClose(String sql, List<List<Object>> rows) throws Exception {
        List<List<Object>> expected = sortedByText(both.duck().queryRaw(sql));
        List<List<Object>> actual = sortedByText(rows);
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
