package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.plan.SluiceException;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Decimal arithmetic and sums end to end on an embedded cluster, against DuckDB on the same
 * Parquet files, at the edges of precision and scale. Sluice holds decimals to 18 digits: where
 * DuckDB's exact result type is wider, Sluice keeps the integer digits and rounds the scale (Spark's
 * rule), and a value past 18 digits is an error naming the expression, never a wrong value.
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
                + "CAST(i % 5 AS INTEGER) AS small FROM range(0, 200) r(i)", 3));
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
    })
    void sameAsDuckDb(String sql) throws Exception {
        both.assertSameRows(sql);
    }

    /**
     * DuckDB keeps every place of a product (f * f is decimal(24,20)); past 18 digits Sluice keeps the
     * integer digits and max(18 - integer digits, min(scale, 6)) places, rounded half away from zero
     * as DuckDB's round() does: 13 for f * f, 6 for f * price and for TPC-H's charge expression.
     */
    @Test
    void productsWiderThanEighteenDigitsRoundTheirScale() throws Exception {
        List<List<Object>> expected = both.duck().query("SELECT id, round(f * f, 13) AS ff, round(f * price, 6) AS fp, "
                + "round(price * (1 - rate) * (1 + rate), 6) AS charge FROM d");
        List<List<Object>> actual = DuckDbOracle.normalize(both.session().sql(
                "SELECT id, f * f AS ff, f * price AS fp, price * (1 - rate) * (1 + rate) AS charge FROM d"));
        assertThat(DuckDbOracle.sorted(actual)).isEqualTo(DuckDbOracle.sorted(expected));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT big + big AS x FROM d|numeric overflow: (big + big) does not fit decimal(18,2)",
        "SELECT whole * whole AS x FROM d|numeric overflow: (whole * whole) does not fit decimal(18,0)",
        "SELECT sum(big) AS x FROM d WHERE big > 0|numeric overflow: sum(big) does not fit decimal(18,2)",
        "SELECT small, sum(big) AS x FROM d WHERE big > 0 GROUP BY small|numeric overflow: sum(big) does not fit decimal(18,2)",
        "SELECT CAST(big AS DECIMAL(18,4)) AS x FROM d|numeric overflow: a decimal(18,2) value does not fit decimal(18,4)",
    })
    void overflowIsAnErrorNamingTheExpression(String sqlAndMessage) {
        String[] parts = sqlAndMessage.split("\\|");
        assertThatThrownBy(() -> both.session().sql(parts[0]).collect()).isInstanceOf(SluiceException.class)
                .hasMessageContaining(parts[1]);
    }
}
