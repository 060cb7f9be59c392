package io.sluice.api;

import static io.sluice.api.Functions.col;
import static io.sluice.api.Functions.expr;
import static io.sluice.api.Functions.lit;
import static io.sluice.api.Functions.sum;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.testfixtures.DuckDbOracle;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The DataFrame's set operations, reshaping, ordering, sampling, NULL handling, statistics, views and
 * grouping variants on the embedded cluster, against DuckDB over the same Parquet tables (with
 * duplicate rows and NULLs), and the errors they raise.
 */
class DataFrameSetOpsIT extends DuckDbComparisonTest {
    @BeforeAll
    static void start() throws Exception {
        both = DuckDbComparison.start(data,
                new DuckDbComparison.Table("a", "SELECT i % 6 AS k, CASE WHEN i % 5 = 0 THEN NULL ELSE 'x' || (i % 3) END AS s, "
                        + "CASE WHEN i % 7 = 0 THEN NULL ELSE i % 4 END AS v FROM range(0, 60) t(i)", 2),
                new DuckDbComparison.Table("b", "SELECT i % 4 AS k, CASE WHEN i % 3 = 0 THEN NULL ELSE 'x' || (i % 2) END AS s, "
                        + "i % 3 AS v FROM range(0, 25) t(i)", 1),
                new DuckDbComparison.Table("c", "SELECT 'x' || (i % 2) AS s, i AS extra, i % 6 AS k FROM range(0, 10) t(i)", 1));
    }

    private static DataFrame t(String name) {
        return both.session().table(name);
    }

    private static void assertSameRows(DataFrame df, String duckSql) throws Exception {
        both.assertSameRows(df, duckSql);
    }

    private static void assertSameOrderedRows(DataFrame df, String duckSql) throws Exception {
        assertThat(DuckDbOracle.normalize(df.collect())).as(duckSql).isEqualTo(both.duck().query(duckSql));
    }

    @Test
    void setOperations() throws Exception {
        assertSameRows(t("a").union(t("b")), "SELECT * FROM a UNION ALL SELECT * FROM b");
        assertSameRows(t("a").unionAll(t("b")).distinct(), "SELECT * FROM a UNION SELECT * FROM b");
        assertSameRows(t("a").intersect(t("b")), "SELECT * FROM a INTERSECT SELECT * FROM b");
        assertSameRows(t("a").intersectAll(t("b")), "SELECT * FROM a INTERSECT ALL SELECT * FROM b");
        assertSameRows(t("a").except(t("b")), "SELECT * FROM a EXCEPT SELECT * FROM b");
        assertSameRows(t("a").exceptAll(t("b")), "SELECT * FROM a EXCEPT ALL SELECT * FROM b");
        assertSameRows(t("b").exceptAll(t("a")), "SELECT * FROM b EXCEPT ALL SELECT * FROM a");
        assertSameRows(both.session().sql("SELECT * FROM a INTERSECT ALL SELECT * FROM b"),
                "SELECT * FROM a INTERSECT ALL SELECT * FROM b");
        assertSameRows(t("a").select("k", "s").dropDuplicates(), "SELECT DISTINCT k, s FROM a");
        assertSameRows(t("a").dropDuplicates("k", "s").select("k", "s"), "SELECT DISTINCT k, s FROM a");
        assertThat(t("a").dropDuplicates("k").count()).isEqualTo(6);
    }

    @Test
    void unionByName() throws Exception {
        assertSameRows(t("a").unionByName(t("b").select("v", "k", "s")), "SELECT * FROM a UNION ALL SELECT * FROM b");
        DataFrame filled = t("a").unionByName(t("c"), true);
        assertThat(filled.columns()).containsExactly("k", "s", "v", "extra");
        assertSameRows(filled, "SELECT k, s, v, NULL AS extra FROM a UNION ALL SELECT k, s, NULL, extra FROM c");
        assertThatThrownBy(() -> t("a").unionByName(t("c"))).isInstanceOf(SluiceException.class)
                .hasMessageContaining("column 'extra' of the right side is not a column of the left side");
        assertThatThrownBy(() -> t("a").unionByName(t("c").drop("extra"))).isInstanceOf(SluiceException.class)
                .hasMessageContaining("column 'v' of the left side is not a column of the right side");
        assertThat(t("a").count()).isEqualTo(60);
    }

    @Test
    void reshapingColumns() throws Exception {
        assertSameRows(t("a").drop("s", "nope"), "SELECT k, v FROM a");
        assertSameRows(t("a").withColumnRenamed("v", "w").select("w", "k"), "SELECT v, k FROM a");
        assertThat(t("a").withColumnsRenamed(Map.of("k", "key", "s", "str")).columns()).containsExactly("key", "str", "v");
        assertThat(t("a").withColumnRenamed("nope", "x").columns()).containsExactly("k", "s", "v");
        Map<String, Column> added = new LinkedHashMap<>();
        added.put("v", col("v").plus(1));
        added.put("k2", col("k").multiply(2));
        DataFrame with = t("a").withColumns(added);
        assertThat(with.columns()).containsExactly("k", "s", "v", "k2");
        assertSameRows(with, "SELECT k, s, v + 1, k * 2 FROM a");
        assertThat(t("a").toDF("x", "y", "z").columns()).containsExactly("x", "y", "z");
        assertSameRows(t("a").selectExpr("k * 10 AS k10", "upper(s)", "*"), "SELECT k * 10, upper(s), * FROM a");
        assertSameRows(t("a").filter("v > 1 AND s LIKE 'x%'").select(expr("v + k AS t")),
                "SELECT v + k FROM a WHERE v > 1 AND s LIKE 'x%'");
        assertSameRows(t("a").alias("q").select(col("q.k")), "SELECT k FROM a");
        assertThatThrownBy(() -> t("a").selectExpr("v +")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("v +");
        assertThatThrownBy(() -> t("a").toDF("x")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("toDF() got 1 names for 3 columns (k, s, v)");
    }

    @Test
    void rangeMadeOnTheWorkers() throws Exception {
        Session session = both.session();
        assertSameRows(session.range(0, 1_000_000, 3, 4).select(Functions.count("*"), sum("id"), Functions.min("id"),
                Functions.max("id")), "SELECT count(*), sum(i), min(i), max(i) FROM range(0, 1000000, 3) t(i)");
        assertSameRows(session.range(10, -10, -3), "SELECT * FROM range(10, -10, -3)");
        assertThat(session.range(5).columns()).containsExactly("id");
        assertThat(session.range(5, 5).count()).isZero();
        assertSameRows(session.range(0, 6).join(t("a"), col("id").equalTo(col("k"))),
                "SELECT r.i, a.* FROM range(0, 6) r(i) JOIN a ON r.i = a.k");
        assertThatThrownBy(() -> session.range(1, 2, 0)).isInstanceOf(SluiceException.class)
                .hasMessage("range(1, 2, 0): the step must not be 0");
        assertThatThrownBy(() -> session.range(Long.MIN_VALUE, Long.MAX_VALUE)).isInstanceOf(SluiceException.class)
                .hasMessageContaining("has 18446744073709551615 values, more than a BIGINT counts");
        assertThat(session.range(3).count()).isEqualTo(3);
    }

    @Test
    void unpivotAndSampleWithReplacement() throws Exception {
        DataFrame unpivoted = t("a").unpivot(new Column[] {col("s")}, new Column[] {col("k"), col("v")}, "var", "val");
        assertThat(unpivoted.columns()).containsExactly("s", "var", "val");
        assertSameRows(unpivoted, "SELECT s, var, val FROM a UNPIVOT INCLUDE NULLS (val FOR var IN (k, v))");
        assertSameRows(t("a").melt(new Column[] {col("k"), col("s")}, new Column[0], "var", "val"), "SELECT k, s, 'v', v FROM a");
        assertThatThrownBy(() -> t("a").unpivot(new Column[] {col("k"), col("s"), col("v")}, "var", "val"))
                .isInstanceOf(SluiceException.class).hasMessageContaining("unpivot needs at least one value column");
        DataFrame sample = both.session().range(0, 10_000, 1, 4).sample(true, 0.5, 7);
        long n = sample.count();
        assertThat(n).isBetween(4_500L, 5_500L);
        assertThat(sample.count()).isEqualTo(n);
        long doubled = both.session().range(0, 10_000, 1, 4).sample(true, 2.0, 7).count();
        assertThat(doubled).isBetween(19_000L, 21_000L);
        assertThat(both.session().range(0, 10_000, 1, 4).sample(true, 2.0, 7).distinct().count()).isLessThan(doubled);
        assertThatThrownBy(() -> t("a").sample(true, -1, 1)).isInstanceOf(SluiceException.class)
                .hasMessageContaining("sample fraction must be between 0 and 1000 with replacement, not -1.0");
        assertThatThrownBy(() -> t("a").sample(true, 1e9, 1)).isInstanceOf(SluiceException.class)
                .hasMessageContaining("sample fraction must be between 0 and 1000 with replacement, not 1.0E9");
        assertThatThrownBy(() -> both.session().range(0, 10, 1, 1_000_000)).isInstanceOf(SluiceException.class)
                .hasMessageContaining("range(0, 10, 1, 1000000): the number of partitions must be between 1 and 10000");
        assertThat(t("a").count()).isEqualTo(60);
    }

    @Test
    void orderingOffsetTailAndSample() throws Exception {
        assertSameOrderedRows(t("a").orderBy(col("v").desc_nulls_first(), col("s").asc_nulls_first(), col("k").desc()),
                "SELECT * FROM a ORDER BY v DESC NULLS FIRST, s ASC NULLS FIRST, k DESC NULLS LAST");
        assertSameOrderedRows(t("a").sort(col("v").asc_nulls_last(), col("s").desc_nulls_last(), col("k").asc())
                        .offset(50), "SELECT * FROM a ORDER BY v ASC NULLS LAST, s DESC NULLS LAST, k OFFSET 50");
        DataFrame ordered = t("a").orderBy(col("k").asc(), col("v").asc_nulls_first(), col("s").asc_nulls_first());
        assertThat(DuckDbOracle.normalize(new io.sluice.kernels.QueryResult(ordered.schema(), ordered.tail(3))))
                .isEqualTo(both.duck().query("SELECT * FROM (SELECT * FROM a ORDER BY k, v NULLS FIRST, s NULLS FIRST"
                        + " OFFSET 57)"));
        DataFrame sample = t("a").sample(0.5, 42);
        long n = sample.count();
        assertThat(n).isBetween(10L, 50L);
        assertThat(sample.count()).isEqualTo(n);
        assertThat(t("a").sample(0.0, 1).count()).isZero();
        assertThat(t("a").sample(1.0, 1).count()).isEqualTo(60);
        assertSameRows(sample.except(t("a")), "SELECT * FROM a WHERE false");
        assertThatThrownBy(() -> t("a").sample(1.5, 1)).isInstanceOf(SluiceException.class)
                .hasMessageContaining("sample fraction must be between 0 and 1, not 1.5");
        assertSameRows(t("a").repartition(4, col("k")).coalesce(1).hint("broadcast"), "SELECT * FROM a");
        assertThat(t("a").repartition(4, col("k")).explain()).contains("Repartition: hash").contains("partitions=4");
        assertThat(t("a").coalesce(2).explain()).contains("Repartition: round robin, partitions=2");
        assertThat(t("a").hint("broadcast").explain()).contains("BroadcastHint");
        assertThatThrownBy(() -> t("a").hint("teleport")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("unknown hint 'teleport'");
    }

    @Test
    void nullHandling() throws Exception {
        assertSameRows(t("a").na().fill(-1), "SELECT k, s, coalesce(v, -1) FROM a");
        assertSameRows(t("a").na().fill("none"), "SELECT k, coalesce(s, 'none'), v FROM a");
        assertSameRows(t("a").na().fill(Map.of("s", "?", "v", 9)), "SELECT k, coalesce(s, '?'), coalesce(v, 9) FROM a");
        assertSameRows(t("a").na().drop(), "SELECT * FROM a WHERE s IS NOT NULL AND v IS NOT NULL");
        assertSameRows(t("a").na().drop("all", "s", "v"), "SELECT * FROM a WHERE s IS NOT NULL OR v IS NOT NULL");
        assertSameRows(t("a").na().drop(3), "SELECT * FROM a WHERE s IS NOT NULL AND v IS NOT NULL");
        assertSameRows(t("a").na().replace("s", Map.of("x1", "one", "x2", "two")),
                "SELECT k, CASE s WHEN 'x1' THEN 'one' WHEN 'x2' THEN 'two' ELSE s END, v FROM a");
        assertThatThrownBy(() -> t("a").na().fill(0, "nope")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("unknown column 'nope'");
    }

    @Test
    void describeAndSummary() throws Exception {
        DataFrame described = t("a").describe("k", "v");
        assertThat(described.columns()).containsExactly("summary", "k", "v");
        List<List<Object>> rows = described.collect().rows();
        assertThat(rows).extracting(r -> r.get(0)).containsExactly("count", "mean", "stddev", "min", "max");
        List<Object> duck = both.duck().query("SELECT count(k), count(v), min(k), min(v), max(k), max(v) FROM a").get(0);
        assertThat(rows.get(0).subList(1, 3)).containsExactly(String.valueOf(duck.get(0)), String.valueOf(duck.get(1)));
        assertThat(rows.get(3).subList(1, 3)).containsExactly(String.valueOf(duck.get(2)), String.valueOf(duck.get(3)));
        assertThat(rows.get(4).subList(1, 3)).containsExactly(String.valueOf(duck.get(4)), String.valueOf(duck.get(5)));
        assertThat(Double.parseDouble((String) rows.get(1).get(2))).isCloseTo(
                ((Number) both.duck().queryRaw("SELECT avg(v) FROM a").get(0).get(0)).doubleValue(),
                org.assertj.core.data.Offset.offset(1e-9));
        assertThat(t("a").summary("min", "max").collect().rows()).hasSize(2);
        assertThatThrownBy(() -> t("a").summary("75%")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("summary statistic '75%' is not supported");
    }

    @Test
    void viewsAndCatalog() throws Exception {
        Session session = both.session();
        t("a").filter(col("k").gt(2)).createOrReplaceTempView("a_high");
        assertThat(session.catalog().tableExists("a_high")).isTrue();
        assertThat(session.catalog().listTables()).contains("a", "b", "a_high");
        assertSameRows(session.sql("SELECT k, count(*) FROM a_high GROUP BY k"),
                "SELECT k, count(*) FROM a WHERE k > 2 GROUP BY k");
        assertSameRows(session.table("a_high").select("k"), "SELECT k FROM a WHERE k > 2");
        assertThatThrownBy(() -> t("a").createTempView("a_high")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("a_high");
        assertThat(session.catalog().dropTempView("a_high")).isTrue();
        assertThat(session.catalog().tableExists("a_high")).isFalse();
        assertThat(session.catalog().dropTempView("a_high")).isFalse();
    }

    @Test
    void pivotRollupAndCube() throws Exception {
        assertSameRows(t("a").groupBy("k").pivot("s", List.of("x0", "x1", "x2")).agg(sum(col("v"))),
                "SELECT k, sum(v) FILTER (WHERE s = 'x0'), sum(v) FILTER (WHERE s = 'x1'), sum(v) FILTER (WHERE s = 'x2')"
                        + " FROM a GROUP BY k");
        DataFrame pivoted = t("a").groupBy("k").pivot("s").count();
        assertThat(pivoted.columns()).containsExactly("k", "null", "x0", "x1", "x2");
        assertSameRows(pivoted, "SELECT k, count(*) FILTER (WHERE s IS NULL), count(*) FILTER (WHERE s = 'x0'),"
                + " count(*) FILTER (WHERE s = 'x1'), count(*) FILTER (WHERE s = 'x2') FROM a GROUP BY k");
        assertSameRows(t("a").rollup("k", "s").agg(sum(col("v")).as("t"), Functions.countStar().as("n")),
                "SELECT k, s, sum(v), count(*) FROM a GROUP BY ROLLUP (k, s)");
        assertSameRows(t("a").cube("k", "s").agg(sum("v")), "SELECT k, s, sum(v) FROM a GROUP BY CUBE (k, s)");
        assertSameRows(t("a").groupBy("k").agg(Map.of("v", "max")), "SELECT k, max(v) FROM a GROUP BY k");
        assertSameRows(t("a").groupBy("k").sum("v"), "SELECT k, sum(v) FROM a GROUP BY k");
        assertThat(t("a").filter(col("k").equalTo(lit(1))).isEmpty()).isFalse();
    }
}
