package io.sluice.api;

import static io.sluice.api.Functions.col;
import static io.sluice.api.Functions.denseRank;
import static io.sluice.api.Functions.lag;
import static io.sluice.api.Functions.lastValue;
import static io.sluice.api.Functions.max;
import static io.sluice.api.Functions.rank;
import static io.sluice.api.Functions.rowNumber;
import static io.sluice.api.Functions.sum;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testfixtures.DuckDbOracle;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Window functions on the embedded cluster against DuckDB, over generated data with a skewed
 * partition key: k = 0 holds 60% of the rows (one partition spanning several batches), the rest
 * spread over ~1000 small partitions; x has ties and NULLs, s NULL partition keys.
 */
class WindowFunctionTest extends DuckDbComparisonTest {
    @BeforeAll
    static void start() throws Exception {
        both = DuckDbComparison.start(data, new DuckDbComparison.Table("w",
                "SELECT i AS id, CASE WHEN i % 10 < 6 THEN 0 ELSE i % 997 END AS k, "
                        + "CASE WHEN i % 13 = 0 THEN NULL ELSE (i * 7919) % 101 END AS x, "
                        + "CAST(((i * 31) % 1000) / 100.0 AS DECIMAL(9, 2)) AS d, "
                        + "CASE WHEN i % 17 = 0 THEN NULL ELSE 'v' || (i % 23) END AS s, "
                        + "CAST((i % 50) * 0.5 AS DOUBLE) AS f FROM range(0, 20000) r(i)", 3));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // ranking, ties in x
        "SELECT id, row_number() OVER (PARTITION BY k ORDER BY x, id) AS rn, rank() OVER (PARTITION BY k ORDER BY x) AS r, "
                + "dense_rank() OVER (PARTITION BY k ORDER BY x DESC) AS dr FROM w",
        "SELECT id, ntile(4) OVER (PARTITION BY k ORDER BY id) AS nt, percent_rank() OVER (PARTITION BY k ORDER BY x) AS pr, "
                + "cume_dist() OVER (PARTITION BY k ORDER BY x NULLS FIRST) AS cd FROM w",
        // offsets
        "SELECT id, lag(x, 2, -1) OVER (PARTITION BY k ORDER BY id) AS l2, lead(s) OVER (PARTITION BY k ORDER BY id) AS ls, "
                + "lead(d, 3) OVER (PARTITION BY s ORDER BY id) AS ld FROM w",
        // default RANGE frame: peers share running values
        "SELECT id, sum(x) OVER (PARTITION BY k ORDER BY x) AS s, count(x) OVER (PARTITION BY k ORDER BY x) AS c, "
                + "avg(x) OVER (PARTITION BY k ORDER BY x) AS a, min(s) OVER (PARTITION BY k ORDER BY x) AS mn, "
                + "max(d) OVER (PARTITION BY k ORDER BY x) AS mx, count(*) OVER (PARTITION BY k ORDER BY x) AS n FROM w",
        // sliding ROWS frames, small and large, on the huge partition too
        "SELECT id, sum(d) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 5 PRECEDING AND 5 FOLLOWING) AS sd, "
                + "min(x) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 100 PRECEDING AND CURRENT ROW) AS mn, "
                + "max(x) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 1000 PRECEDING AND 10 FOLLOWING) AS mx, "
                + "avg(x) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING) AS a FROM w",
        "SELECT id, first_value(s) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 3 PRECEDING AND 3 FOLLOWING) AS fv, "
                + "last_value(s) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 3 PRECEDING AND 3 FOLLOWING) AS lv, "
                + "last_value(x) OVER (PARTITION BY k ORDER BY x) AS lx, "
                + "count(s) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 10 PRECEDING AND 10 FOLLOWING) AS cs, "
                + "nth_value(s, 2) OVER (PARTITION BY k ORDER BY id) AS n2 FROM w",
        // RANGE with value offsets over ties and NULLs
        "SELECT id, sum(x) OVER (PARTITION BY k ORDER BY x RANGE BETWEEN 10 PRECEDING AND 10 FOLLOWING) AS s, "
                + "count(*) OVER (PARTITION BY k ORDER BY x DESC RANGE BETWEEN 5 PRECEDING AND CURRENT ROW) AS c FROM w",
        // whole partitions, one global window, a string partition key with NULLs
        "SELECT id, sum(x) OVER (PARTITION BY k) AS s, count(*) OVER () AS n, max(id) OVER (PARTITION BY s) AS m, "
                + "sum(f) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS sf, "
                + "row_number() OVER (ORDER BY f DESC, id) AS rn FROM w",
    })
    void agreesWithDuckDb(String sql) throws Exception {
        both.assertSameRows(sql);
    }

    @Test
    void topThreePerGroup() throws Exception {
        both.assertSameRows("SELECT k, id, x FROM (SELECT k, id, x, row_number() OVER (PARTITION BY k ORDER BY x DESC, id) AS rn "
                + "FROM w) q WHERE rn <= 3");
    }

    @Test
    void windowOverAggregates() throws Exception {
        both.assertSameRows("SELECT k, sum(x) AS total, rank() OVER (ORDER BY sum(x) DESC, k) AS r, "
                + "sum(sum(x)) OVER (ORDER BY k ROWS UNBOUNDED PRECEDING) AS running FROM w GROUP BY k");
    }

    /** The DataFrame API builds the same plan: Spark's Window spec and {@code over}. */
    @Test
    void dataFrameWindowsAgreeWithSql() throws Exception {
        DataFrame w = both.session().read().parquet(data.resolve("w").toString());
        WindowSpec byK = Window.partitionBy("k").orderBy(col("x").asc(), col("id").asc());
        DataFrame result = w.select(col("id"), rowNumber().over(byK).as("rn"),
                lag(col("x"), 1, -1).over(byK).as("prev"),
                sum(col("x")).over(Window.partitionBy("k").orderBy("id").rowsBetween(-2, Window.currentRow)).as("s"),
                max(col("d")).over(Window.partitionBy("k")).as("mx"),
                rank().over(Window.orderBy(col("f").desc())).as("r"),
                lastValue(col("s"), true).over(Window.partitionBy("k").orderBy("id")).as("filled"));
        List<List<Object>> expected = both.duck().query("SELECT id, row_number() OVER (PARTITION BY k ORDER BY x, id) AS rn, "
                + "lag(x, 1, -1) OVER (PARTITION BY k ORDER BY x, id) AS prev, "
                + "sum(x) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS s, "
                + "max(d) OVER (PARTITION BY k) AS mx, rank() OVER (ORDER BY f DESC) AS r, "
                + "last_value(s IGNORE NULLS) OVER (PARTITION BY k ORDER BY id) AS filled FROM w");
        assertThat(result.schema().names()).containsExactly("id", "rn", "prev", "s", "mx", "r", "filled");
        assertThat(DuckDbOracle.sorted(DuckDbOracle.normalize(result.collect()))).isEqualTo(DuckDbOracle.sorted(expected));
    }

    @Test
    void dataFrameWithColumnKeepsEveryColumn() throws Exception {
        DataFrame w = both.session().read().parquet(data.resolve("w").toString());
        DataFrame ranked = w.withColumn("dr", denseRank().over(Window.partitionBy("s").orderBy(col("x").desc())))
                .filter(col("dr").leq(2));
        assertThat(ranked.schema().names()).containsExactly("id", "k", "x", "d", "s", "f", "dr");
        List<List<Object>> expected = both.duck().query("SELECT * FROM (SELECT *, dense_rank() OVER (PARTITION BY s "
                + "ORDER BY x DESC) AS dr FROM w) WHERE dr <= 2");
        assertThat(DuckDbOracle.sorted(DuckDbOracle.normalize(ranked.collect()))).isEqualTo(DuckDbOracle.sorted(expected));
    }
}
