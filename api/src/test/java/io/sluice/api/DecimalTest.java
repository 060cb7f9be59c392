package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.testfixtures.DuckDbOracle;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Decimal arithmetic and sums end to end on an embedded cluster, against DuckDB on the same
 * Parquet files, at the edges of precision and scale. Decimals go up to precision 38 (values past
 * a long in 128 bits); result types follow Spark, which equal DuckDB's values wherever DuckDB's
 * exact type fits 38 digits; past 38 digits Sluice keeps the integer digits and rounds the scale
 * (Spark's rule), and a value past the declared precision is an error naming the expression, never
 * a wrong value.
 */
class DecimalTest extends DuckDbComparisonTest {
    @BeforeAll
    static void start() throws Exception {
        both = DuckDbComparison.start(data, new DuckDbComparison.Table("d", "SELECT i AS id, "
                // price: decimal(15,2) with negatives and NULLs; rate: decimal(5,4); f: decimal(12,10)
                + "CASE WHEN i % 9 = 4 THEN NULL ELSE CAST((i * 7919 % 100000) / 100.0 - 200 AS DECIMAL(15,2)) END AS price, "
                + "CAST((i * 31 % 10000) / 10000.0 AS DECIMAL(5,4)) AS rate, "
                + "CAST((i * 104729 % 9999999999) / 10000000000.0 AS DECIMAL(12,10)) AS f, "
                // big: decimal(18,2) up to 16 integer digits; whole: decimal(18,0)
                + "CAST(CASE WHEN i % 2 = 0 THEN 9999999999999999.99 - i ELSE -9999999999999999.99 + i END AS DECIMAL(18,2)) AS big, "
                + "CAST(i * 100000000000 AS DECIMAL(18,0)) AS whole, "
                + "CAST(i % 5 AS INTEGER) AS small, "
                // w: decimal(38,2) with 34 integer digits, both signs; h: decimal(38,0) = i * 10^21;
                // m: decimal(25,5) past a long (15 integer digits, 5 places) with NULLs; k: decimal(30,2), 7 distinct
                + "CAST(CASE WHEN i % 2 = 0 THEN '-' ELSE '' END || '9999999999999999999999999999999' "
                + "|| lpad(CAST(i AS VARCHAR), 3, '0') || '.' || lpad(CAST(i * 37 % 100 AS VARCHAR), 2, '0') AS DECIMAL(38,2)) AS w, "
                + "CAST(CAST(i AS VARCHAR) || '000000000000000000000' AS DECIMAL(38,0)) AS h, "
                + "CASE WHEN i % 11 = 5 THEN NULL ELSE CAST(CAST((i - 100) * 1234567890123 AS VARCHAR) || '.' "
                + "|| lpad(CAST(i * 7 % 100000 AS VARCHAR), 5, '0') AS DECIMAL(25,5)) END AS m, "
                + "CAST(CASE WHEN i % 3 = 0 THEN '-' ELSE '' END || '1234567890123456789012345678.' "
                + "|| lpad(CAST(i % 7 AS VARCHAR), 2, '0') AS DECIMAL(30,2)) AS k "
                + "FROM range(0, 200) r(i)", 3));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT id, price + rate AS a, price - rate AS b, price * rate AS c, price * small AS e, rate * rate AS g FROM d",
        "SELECT id, price * (1 - rate) AS net, price / rate AS q FROM d WHERE rate > 0",
        "SELECT id, price % 7 AS m, -price AS n, big - 1 AS b1, whole + price AS b2 FROM d",
        "SELECT id, CAST(price AS DECIMAL(18,4)) AS p4, CAST(price * rate AS DECIMAL(10,2)) AS r2, CAST(f AS DECIMAL(6,3)) AS f3 FROM d",
        "SELECT small, sum(price) AS s, avg(price) AS a, min(big) AS lo, max(big) AS hi, sum(rate * price) AS sr FROM d GROUP BY small",
        "SELECT sum(price) AS s, sum(whole) AS w, sum(f) AS sf, avg(rate) AS ar, count(price) AS n FROM d",
        "SELECT id FROM d WHERE price * rate > 100.5 AND big > 0",
        // whole (scale 0, up to 14 digits) against f (scale 10): the common scale passes a long
        "SELECT id, whole > f AS gt, whole = f AS eq FROM d WHERE whole >= f",
        // past 18 digits: exact products of 18-digit decimals (DuckDB's types fit 38 digits)
        "SELECT id, f * f AS ff, f * price AS fp FROM d",
        // precision 19 to 38, values past a long: arithmetic, comparison, sums, min/max
        "SELECT id, w + 0.01 AS a, w - price AS b, -w AS c, m + m AS e, m - price AS g, m * rate AS r, m * f AS mf, h + w AS hw FROM d",
        "SELECT id, w > price AS gt, w = w AS eq, m < price AS lt, h >= whole AS ge, k <> m AS ne FROM d",
        "SELECT small, sum(w) AS sw, sum(m) AS sm, sum(h) AS sh, min(w) AS lo, max(m) AS hi, count(m) AS n FROM d GROUP BY small",
        "SELECT sum(w) AS sw, sum(m) AS sm, sum(k) AS sk, min(k) AS lo, max(h) AS hi FROM d",
        "SELECT avg(m) AS am, avg(k) AS ak, avg(h) AS ah FROM d",
        // wide values as group keys, join keys, sort keys, CASE results, casts and constants
        "SELECT k, count(*) AS n, sum(price) AS s, sum(m) AS sm FROM d GROUP BY k",
        "SELECT a.k, count(*) AS n FROM d a JOIN d b ON a.k = b.k GROUP BY a.k",
        "SELECT id, w FROM d ORDER BY w DESC, id LIMIT 7",
        "SELECT id, m, k FROM d ORDER BY m, k",
        "SELECT id, CASE WHEN small = 0 THEN m ELSE k END AS c FROM d",
        "SELECT id, CAST(m AS DECIMAL(38,2)) AS m2, CAST(k AS VARCHAR) AS ks, CAST(price AS DECIMAL(30,10)) AS p10, "
                + "CAST(m AS DECIMAL(20,0)) AS m0, CAST(CAST(k AS VARCHAR) AS DECIMAL(32,3)) AS k3 FROM d",
        "SELECT id, m + 12345678901234567890.5 AS lit, k * -1 AS neg FROM d WHERE m > -123456789012345678.5",
        "SELECT id, sum(m) OVER (PARTITION BY small ORDER BY id) AS running, "
                + "sum(k) OVER (PARTITION BY small ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS moving FROM d",
    })
    void sameAsDuckDb(String sql) throws Exception {
        both.assertSameRows(sql);
    }

    /**
     * DuckDB computes {@code decimal(18, s)} sums and products in 64 bits and fails past them
     * (its result type is 19 digits, its computation is not); with the operands cast to 38 digits
     * it gives the exact values, which Sluice gives without the casts.
     */
    @Test
    void resultsPastEighteenDigitsAreExact() throws Exception {
        List<List<Object>> expected = both.duck().query("SELECT id, CAST(big AS DECIMAL(38,2)) + big AS bb, "
                + "CAST(big AS DECIMAL(38,2)) * big AS b2, CAST(big AS DECIMAL(38,2)) - (-big) AS b3, "
                + "CAST(whole AS DECIMAL(38,0)) * whole AS ww FROM d");
        List<List<Object>> actual = DuckDbOracle.normalize(both.session().sql(
                "SELECT id, big + big AS bb, big * big AS b2, big - (-big) AS b3, whole * whole AS ww FROM d").collect());
        assertThat(DuckDbOracle.sorted(actual)).isEqualTo(DuckDbOracle.sorted(expected));
        expected = both.duck().query("SELECT small, sum(big) AS s, sum(CAST(big AS DECIMAL(38,2)) * big) AS s2, "
                + "max(CAST(big AS DECIMAL(38,2)) * big) AS m2 FROM d WHERE big > 0 GROUP BY small");
        actual = DuckDbOracle.normalize(both.session().sql(
                "SELECT small, sum(big) AS s, sum(big * big) AS s2, max(big * big) AS m2 FROM d WHERE big > 0 GROUP BY small").collect());
        assertThat(DuckDbOracle.sorted(actual)).isEqualTo(DuckDbOracle.sorted(expected));
    }

    /**
     * Past 38 digits DuckDB's product has no decimal type; Sluice keeps the integer digits and
     * max(38 - integer digits, min(scale, 6)) places, rounded half away from zero as DuckDB's
     * round() does: 6 for TPC-H's charge expression.
     */
    @Test
    void productsWiderThanThirtyEightDigitsRoundTheirScale() throws Exception {
        List<List<Object>> expected = both.duck().query(
                "SELECT id, round(price * (1 - rate) * (1 + rate), 6) AS charge FROM d");
        List<List<Object>> actual = DuckDbOracle.normalize(both.session().sql(
                "SELECT id, price * (1 - rate) * (1 + rate) AS charge FROM d").collect());
        assertThat(DuckDbOracle.sorted(actual)).isEqualTo(DuckDbOracle.sorted(expected));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT h * h AS x FROM d|numeric overflow: (h * h) does not fit decimal(38,0)",
        "SELECT w * 1000 AS x FROM d|numeric overflow: (w * 1000) does not fit decimal(38,2)",
        "SELECT m + 99999999999999999999999999999999999.99 AS x FROM d|does not fit decimal(38,5)",
        "SELECT sum(w * 10) AS x FROM d WHERE w > 0|numeric overflow: sum((w * 10)) does not fit decimal(38,2)",
        "SELECT small, sum(w * 10) AS x FROM d WHERE w > 0 GROUP BY small|does not fit decimal(38,2)",
        "SELECT CAST(big AS DECIMAL(18,4)) AS x FROM d|numeric overflow: a decimal(18,2) value does not fit decimal(18,4)",
        "SELECT CAST(w AS DECIMAL(30,2)) AS x FROM d|does not fit decimal(30,2)",
        "SELECT CAST(m AS BIGINT) * 100000 AS x FROM d|numeric overflow",
    })
    void overflowIsAnErrorNamingTheExpression(String sqlAndMessage) {
        String[] parts = sqlAndMessage.split("\\|");
        assertThatThrownBy(() -> both.session().sql(parts[0]).collect()).isInstanceOf(SluiceException.class)
                .hasMessageContaining(parts[1]);
    }
}
