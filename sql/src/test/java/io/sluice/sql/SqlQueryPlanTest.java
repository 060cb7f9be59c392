package io.sluice.sql;

import static io.sluice.sql.SqlTestTables.logical;
import static io.sluice.sql.SqlTestTables.plan;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import org.junit.jupiter.api.Test;

class SqlQueryPlanTest {
    @Test
    void filterGroupByHavingOrderByLimit() {
        assertThat(plan("""
                SELECT k, sum(v) AS total, count(*)
                FROM t
                WHERE flag AND v > 10
                GROUP BY k
                HAVING sum(v) > 100 AND count(*) >= 2
                ORDER BY total DESC
                LIMIT 5""")).isEqualTo("""
                Limit: fetch=5
                  Sort: total DESC NULLS LAST
                    Projection: k, sum(v) AS total, count(*)
                      Filter: ((sum(v) > 100) AND (count(*) >= 2))
                        Aggregate: groupBy=[k], aggr=[sum(v), count(*)]
                          Filter: (flag AND (v > 10))
                            TableScan: t
                """);
    }

    @Test
    void unaliasedAggregatesAreNamedLikeDuckDb() {
        assertThat(logical("SELECT k, sum(v), avg(v) AS a FROM t GROUP BY k").schema().names())
                .containsExactly("k", "sum(v)", "a");
    }

    @Test
    void havingAggregateNotInSelectListIsComputedToo() {
        assertThat(plan("SELECT k FROM t GROUP BY k HAVING max(d) > 1.50")).isEqualTo("""
                Projection: k
                  Filter: (max(d) > 1.50)
                    Aggregate: groupBy=[k], aggr=[max(d)]
                      TableScan: t
                """);
    }

    @Test
    void selectAliasesAndOrdinals() {
        assertThat(plan("SELECT k AS key, v + 1 FROM t ORDER BY 2, key DESC NULLS FIRST")).isEqualTo("""
                Sort: (v + 1) ASC NULLS LAST, key DESC NULLS FIRST
                  Projection: k AS key, (v + 1)
                    TableScan: t
                """);
    }

    @Test
    void groupByOrdinalAndAlias() {
        String expected = """
                Sort: m ASC NULLS LAST
                  Projection: (v % 3) AS m, count(*)
                    Aggregate: groupBy=[(v % 3)], aggr=[count(*)]
                      TableScan: t
                """;
        assertThat(plan("SELECT v % 3 AS m, count(*) FROM t GROUP BY 1 ORDER BY 1")).isEqualTo(expected);
        assertThat(plan("SELECT v % 3 AS m, count(*) FROM t GROUP BY m ORDER BY m")).isEqualTo(expected);
        assertThat(plan("SELECT v % 3 AS m, count(*) FROM t GROUP BY v % 3 ORDER BY m")).isEqualTo(expected);
    }

    @Test
    void groupByExpressionUsedInsideSelectExpression() {
        assertThat(plan("SELECT v + 1, (v + 1) * 2 AS twice, sum(d) FROM t GROUP BY v + 1")).isEqualTo("""
                Projection: (v + 1), ((v + 1) * 2) AS twice, sum(d)
                  Aggregate: groupBy=[(v + 1)], aggr=[sum(d)]
                    TableScan: t
                """);
    }

    @Test
    void distinct() {
        assertThat(plan("SELECT DISTINCT k, flag FROM t WHERE v > 0 ORDER BY k")).isEqualTo("""
                Sort: k ASC NULLS LAST
                  Aggregate: groupBy=[k, flag], aggr=[]
                    Projection: k, flag
                      Filter: (v > 0)
                        TableScan: t
                """);
    }

    @Test
    void globalAggregate() {
        assertThat(plan("SELECT count(*), sum(d), avg(v) AS mean, min(\"day\"), max(k) FROM t")).isEqualTo("""
                Projection: count(*), sum(d), avg(v) AS mean, min(day), max(k)
                  Aggregate: groupBy=[], aggr=[count(*), sum(d), avg(v), min(day), max(k)]
                    TableScan: t
                """);
        // Spark's sum type: ten more integer digits (d is decimal(10,2))
        assertThat(logical("SELECT sum(d) FROM t").schema().field(0).type()).isEqualTo(DataType.decimal(20, 2));
    }

    @Test
    void aggregatesAreComputedOnceEvenWhenRepeated() {
        assertThat(plan("SELECT sum(v), sum(v) * 2 AS twice FROM t HAVING sum(v) > 0 ORDER BY sum(v)")).isEqualTo("""
                Sort: sum(v) ASC NULLS LAST
                  Projection: sum(v), (sum(v) * 2) AS twice
                    Filter: (sum(v) > 0)
                      Aggregate: groupBy=[], aggr=[sum(v)]
                        TableScan: t
                """);
    }

    @Test
    void orderByHiddenColumn() {
        assertThat(plan("SELECT k FROM t ORDER BY v + 1 DESC, d LIMIT 3 OFFSET 2")).isEqualTo("""
                Limit: fetch=3 offset=2
                  Projection: k
                    Sort: (v + 1) DESC NULLS LAST, d ASC NULLS LAST
                      Projection: k, (v + 1), d
                        TableScan: t
                """);
    }

    @Test
    void orderByHiddenAggregate() {
        assertThat(plan("SELECT k FROM t GROUP BY k ORDER BY count(*) DESC, k")).isEqualTo("""
                Projection: k
                  Sort: count(*) DESC NULLS LAST, k ASC NULLS LAST
                    Projection: k, count(*)
                      Aggregate: groupBy=[k], aggr=[count(*)]
                        TableScan: t
                """);
    }

    @Test
    void orderByInputColumnShadowedByAnAliasGetsAFreshHiddenName() {
        assertThat(plan("SELECT k AS v FROM t ORDER BY t.v")).isEqualTo("""
                Projection: v
                  Sort: __sort_key_1 ASC NULLS LAST
                    Projection: k AS v, v AS __sort_key_1
                      TableScan: t
                """);
    }

    @Test
    void orderByExpressionEqualToASelectItemSortsThatOutput() {
        assertThat(plan("SELECT v * 2 AS w FROM t ORDER BY v * 2")).isEqualTo("""
                Sort: w ASC NULLS LAST
                  Projection: (v * 2) AS w
                    TableScan: t
                """);
    }

    @Test
    void orderByExpressionOverAnAlias() {
        assertThat(plan("SELECT k, sum(v) AS s FROM t GROUP BY k ORDER BY s * -1")).isEqualTo("""
                Projection: k, s
                  Sort: (sum(v) * -1) ASC NULLS LAST
                    Projection: k, sum(v) AS s, (sum(v) * -1)
                      Aggregate: groupBy=[k], aggr=[sum(v)]
                        TableScan: t
                """);
    }

    @Test
    void betweenIsDesugaredAndAnInListIsOneExpression() {
        assertThat(plan("""
                SELECT * FROM t
                WHERE v BETWEEN 1 AND 10 AND k IN ('a', 'b') AND v NOT IN (3, 4)
                  AND d NOT BETWEEN 1.5 AND 2.25""")).isEqualTo("""
                Projection: k, v, d, day, flag
                  Filter: (((((v >= 1) AND (v <= 10)) AND (k IN ('a', 'b'))) AND (v NOT IN (3, 4))) AND ((d < 1.5) OR (d > 2.25)))
                    TableScan: t
                """);
    }

    @Test
    void literalsOperatorsAndCasts() {
        assertThat(plan("""
                SELECT x.k, t.v, CAST(v AS INTEGER) AS i, CAST(v AS STRING) AS s, CAST(k AS double) AS f,
                       CAST('2024-02-29' AS DATE) AS dt, CAST(1 AS BOOLEAN) AS b, v % 7, 'it''s', NULL AS n
                FROM t AS x
                WHERE x."day" >= DATE '2024-01-31' AND -v < 1e3 AND CAST(v AS DECIMAL(12,2)) <> d
                  AND k IS NOT NULL AND NOT flag IS NULL AND (v != 2 OR v = -3) AND v / 2 <= 1.25""")).isEqualTo("""
                Projection: k, v, CAST(v AS int32) AS i, CAST(v AS utf8) AS s, CAST(k AS float64) AS f, CAST('2024-02-29' AS date32) AS dt, CAST(1 AS bool) AS b, (v % 7), 'it''s', NULL AS n
                  Filter: (((((((day >= DATE '2024-01-31') AND (-v < 1000.0)) AND (CAST(v AS decimal(12,2)) <> d)) AND k IS NOT NULL) AND NOT flag IS NULL) AND ((v <> 2) OR (v = -3))) AND ((v / 2) <= 1.25))
                    TableScan: t
                """);
    }

    @Test
    void columnNamesAreMatchedCaseInsensitivelyAndPrintedAsDeclared() {
        assertThat(plan("SELECT K, T.V FROM T WHERE FLAG")).isEqualTo("""
                Projection: k, v
                  Filter: flag
                    TableScan: t
                """);
    }

    @Test
    void limitWithoutOrderByAndFetchFirst() {
        String expected = """
                Limit: fetch=10
                  Projection: k
                    TableScan: t
                """;
        assertThat(plan("SELECT k FROM t LIMIT 10")).isEqualTo(expected);
        assertThat(plan("SELECT k FROM t FETCH FIRST 10 ROWS ONLY")).isEqualTo(expected);
        assertThat(plan("SELECT k FROM t OFFSET 4")).isEqualTo("""
                Limit: fetch=9223372036854775807 offset=4
                  Projection: k
                    TableScan: t
                """);
    }

    @Test
    void trailingSemicolonAndCommentsAreFine() {
        assertThat(plan("-- the keys\nSELECT k FROM t /* all */ ;")).isEqualTo("""
                Projection: k
                  TableScan: t
                """);
    }
}
