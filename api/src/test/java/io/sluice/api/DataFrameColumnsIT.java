package io.sluice.api;

import static io.sluice.api.Functions.avg;
import static io.sluice.api.Functions.callFunction;
import static io.sluice.api.Functions.coalesce;
import static io.sluice.api.Functions.col;
import static io.sluice.api.Functions.count;
import static io.sluice.api.Functions.countDistinct;
import static io.sluice.api.Functions.expr;
import static io.sluice.api.Functions.lit;
import static io.sluice.api.Functions.lower;
import static io.sluice.api.Functions.max;
import static io.sluice.api.Functions.min;
import static io.sluice.api.Functions.sum;
import static io.sluice.api.Functions.upper;
import static io.sluice.api.Functions.when;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Column expressions and functions of the DataFrame API on the embedded cluster, against DuckDB on
 * the same Parquet table (with NULLs in every column), and the errors of unknown functions and of
 * misused Columns.
 */
class DataFrameColumnsIT extends DuckDbComparisonTest {
    @BeforeAll
    static void start() throws Exception {
        both = DuckDbComparison.start(data, new DuckDbComparison.Table("t",
                "SELECT i AS id, CASE WHEN i % 9 = 0 THEN NULL ELSE i % 5 END AS a, CASE WHEN i % 8 = 0 THEN NULL ELSE i % 3 END AS b, "
                        + "CASE WHEN i % 6 = 0 THEN NULL ELSE 'Name' || (i % 7) || '_x' END AS s, "
                        + "CAST(i * 1.5 AS DOUBLE) AS f, DATE '2024-01-01' + CAST(i * 5 AS INTEGER) AS d FROM range(0, 80) r(i)", 2));
    }

    private static DataFrame t() {
        return both.session().table("t");
    }

    private static void assertSameRows(DataFrame df, String duckSql) throws Exception {
        both.assertSameRows(df, duckSql);
    }

    @Test
    void conditionsAndComparisons() throws Exception {
        assertSameRows(t().select(col("id"), when(col("a").gt(2), "big").when(col("a").gt(0), "small").otherwise("none")),
                "SELECT id, CASE WHEN a > 2 THEN 'big' WHEN a > 0 THEN 'small' ELSE 'none' END FROM t");
        assertSameRows(t().select(col("id"), when(col("a").equalTo(1), col("f"))),
                "SELECT id, CASE WHEN a = 1 THEN f END FROM t");
        assertSameRows(t().filter(col("a").isin(1, 3, 4)).select("id"), "SELECT id FROM t WHERE a IN (1, 3, 4)");
        assertSameRows(t().filter(col("s").like("Name1%")).select("id"), "SELECT id FROM t WHERE s LIKE 'Name1%'");
        assertSameRows(t().filter(col("a").isNull().or(col("b").isNotNull().and(col("b").between(1, 2)))).select("id"),
                "SELECT id FROM t WHERE a IS NULL OR (b IS NOT NULL AND b BETWEEN 1 AND 2)");
        assertSameRows(t().select(col("id"), col("a").eqNullSafe(col("b")).as("e")),
                "SELECT id, a IS NOT DISTINCT FROM b FROM t");
        assertSameRows(t().filter(col("a").notEqual(col("b")).and(col("f").geq(30)).or(col("id").lt(3))).select("id"),
                "SELECT id FROM t WHERE (a <> b AND f >= 30) OR id < 3");
        assertSameRows(t().filter(col("a").eq(2).not()).select("id"), "SELECT id FROM t WHERE NOT (a = 2)");
    }

    @Test
    void arithmeticCastsAndStrings() throws Exception {
        assertSameRows(t().select(col("a").plus(col("b")).multiply(2).minus(1), col("f").divide(3), col("id").mod(7),
                col("a").negate()), "SELECT (a + b) * 2 - 1, f / 3, id % 7, -a FROM t");
        assertSameRows(t().select(col("f").cast("decimal(10, 1)").as("fd"), col("id").cast("string"), col("a").cast(DataType.FLOAT64),
                col("b").cast("int")), "SELECT CAST(f AS DECIMAL(10, 1)), CAST(id AS VARCHAR), CAST(a AS DOUBLE), CAST(b AS INTEGER) FROM t");
        assertSameRows(t().select(col("s").substr(2, 3), upper(col("s")), lower(col("s")),
                col("s").startsWith("Name3"), col("s").endsWith("3_x"), col("s").contains("e4")),
                "SELECT substr(s, 2, 3), upper(s), lower(s), starts_with(s, 'Name3'), s LIKE '%3_x', strpos(s, 'e4') > 0 FROM t");
        assertSameRows(t().select(coalesce(col("a"), col("b"), lit(-1)), callFunction("date_trunc", lit("month"), col("d")).cast("date"),
                callFunction("abs", col("a").minus(3)), Functions.year(col("d"))),
                "SELECT coalesce(a, b, -1), CAST(date_trunc('month', d) AS DATE), abs(a - 3), year(d) FROM t");
        assertSameRows(t().select(expr("a * 2 + 1 AS x"), expr("concat(s, '!')")), "SELECT a * 2 + 1, concat(s, '!') FROM t");
    }

    @Test
    void aggregates() throws Exception {
        assertSameRows(t().groupBy("a").agg(sum(col("f")), avg(col("b")), min(col("s")), max(col("d")), count(col("b")),
                countDistinct(col("b")).as("db")),
                "SELECT a, sum(f), avg(b), min(s), max(d), count(b), count(DISTINCT b) FROM t GROUP BY a");
        assertSameRows(t().select(sum(col("id")), countDistinct(col("s"))), "SELECT sum(id), count(DISTINCT s) FROM t");
        assertSameRows(t().groupBy(col("a").mod(2)).agg(Functions.countStar().as("n")),
                "SELECT a % 2, count(*) FROM t GROUP BY a % 2");
        // expressions over aggregates, as Spark's agg() takes them
        assertSameRows(t().groupBy("a").agg(sum(col("f")).divide(count(col("b"))).as("r"),
                max(col("id")).minus(min(col("id"))).multiply(2).as("w")),
                "SELECT a, sum(f) / count(b), (max(id) - min(id)) * 2 FROM t GROUP BY a");
        assertSameRows(t().select(sum(col("f")).divide(sum(col("id"))).as("r")), "SELECT sum(f) / sum(id) FROM t");
    }

    @Test
    void misusedColumnsAreErrorsNamingThem() throws Exception {
        assertThatThrownBy(() -> t().select(callFunction("soundex", col("s")))).isInstanceOf(SluiceException.class)
                .hasMessageContaining("soundex");
        assertThatThrownBy(() -> t().select(col("nope"))).isInstanceOf(SluiceException.class)
                .hasMessageContaining("unknown column 'nope'");
        assertThatThrownBy(() -> t().select(col("a").desc())).isInstanceOf(SluiceException.class)
                .hasMessageContaining("only allowed in orderBy");
        assertThatThrownBy(() -> col("a").otherwise(1)).isInstanceOf(SluiceException.class)
                .hasMessageContaining("otherwise() applies to a Column made by Functions.when()");
        assertThatThrownBy(() -> t().select(expr("a +* 2"))).isInstanceOf(SluiceException.class)
                .hasMessageContaining("a +* 2");
        assertThat(t().count()).isEqualTo(80);
    }
}
