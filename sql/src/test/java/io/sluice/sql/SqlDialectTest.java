package io.sluice.sql;

import static io.sluice.sql.SqlTestTables.logical;
import static io.sluice.sql.SqlTestTables.plan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import org.junit.jupiter.api.Test;

/** The everyday dialect: words Calcite reserves as names, WITH, intervals, DISTINCT aggregates. */
class SqlDialectTest {
    @Test
    void wordsSparkAndDuckDbAcceptAsNames() {
        assertThat(plan("SELECT v AS value, 1 AS one, k AS year, t.day AS date, v AS position, k AS \"user\" FROM t"))
                .isEqualTo("""
                Projection: v AS value, 1 AS one, k AS year, day AS date, v AS position, k AS user
                  TableScan: t
                """);
        assertThat(plan("SELECT day, one.v FROM t AS one WHERE one.day > DATE '2024-01-01' ORDER BY day"))
                .isEqualTo("""
                Sort: day ASC NULLS LAST
                  Projection: day, v
                    Filter: (day > DATE '2024-01-01')
                      TableScan: t
                """);
    }

    @Test
    void softKeywordTheParserTookAsAKeywordIsQuotedToo() {
        assertThat(plan("SELECT upper(k) AS u, count(value) FROM (SELECT k, v AS value FROM t) GROUP BY upper(k)"))
                .contains("Aggregate: groupBy=[upper(unnamed_subquery.k)], aggr=[count(unnamed_subquery.value)]");
    }

    @Test
    void keywordsStillWorkAsKeywords() {
        assertThat(plan("SELECT extract(year FROM day), DATE '2024-01-01' FROM t")).isEqualTo("""
                Projection: extract(YEAR FROM day), DATE '2024-01-01'
                  TableScan: t
                """);
    }

    @Test
    void selectWithoutFromReadsOneRow() {
        assertThat(plan("SELECT 1 AS one, 'a'")).isEqualTo("""
                Projection: 1 AS one, 'a'
                  Aggregate: groupBy=[], aggr=[count(*)]
                    EmptyRelation: \n""");
    }

    @Test
    void valuesRowsAreUnitedWithDuckDbColumnNames() {
        assertThat(plan("SELECT * FROM (VALUES (1, 'a'), (2, NULL)) AS x (n, s) WHERE n > 1")).isEqualTo("""
                Projection: x.n AS n, x.s AS s
                  Filter: (x.n > 1)
                    SubqueryAlias: x
                      Projection: col0 AS n, col1 AS s
                        Union: all
                          Projection: 1 AS col0, 'a' AS col1
                            Aggregate: groupBy=[], aggr=[count(*)]
                              EmptyRelation: \n\
                          Projection: col0, CAST(col1 AS utf8) AS col1
                            Projection: 2 AS col0, NULL AS col1
                              Aggregate: groupBy=[], aggr=[count(*)]
                                EmptyRelation: \n""");
        assertThatThrownBy(() -> logical("VALUES (1, 2), (3)")).isInstanceOf(SluiceException.class)
                .hasMessage("VALUES rows must all have 2 values; found a row with 1");
    }

    @Test
    void subqueryInFromWithoutAnAlias() {
        assertThat(plan("SELECT k FROM (SELECT k FROM t) WHERE k = 'a'")).isEqualTo("""
                Projection: unnamed_subquery.k AS k
                  Filter: (unnamed_subquery.k = 'a')
                    SubqueryAlias: unnamed_subquery
                      Projection: k
                        TableScan: t
                """);
    }

    @Test
    void columnAliasListsOnTablesAndSubqueries() {
        assertThat(plan("SELECT c.key, n FROM (SELECT k, count(*) FROM t GROUP BY k) AS c (key, n)")).isEqualTo("""
                Projection: c.key AS key, c.n AS n
                  SubqueryAlias: c
                    Projection: k AS key, count(*) AS n
                      Projection: k, count(*)
                        Aggregate: groupBy=[k], aggr=[count(*)]
                          TableScan: t
                """);
        assertThat(plan("SELECT a FROM u AS x (a)")).isEqualTo("""
                Projection: x.a AS a
                  SubqueryAlias: x
                    TableScan: u
                """);
        assertThatThrownBy(() -> logical("SELECT * FROM u AS x (a, b)")).isInstanceOf(SluiceException.class)
                .hasMessage("x names 2 columns but its query has 1: a");
    }

    @Test
    void withIsPlannedOnceAndReadWhereverNamed() {
        assertThat(plan("""
                WITH r (key, n) AS (SELECT k, count(*) FROM t GROUP BY k)
                SELECT a.key FROM r AS a, r AS b WHERE a.key = b.key AND a.n = (SELECT max(n) FROM r)
                ORDER BY 1""")).isEqualTo("""
                Sort: key ASC NULLS LAST
                  Projection: a.key AS key
                    Filter: ((a.key = b.key) AND (a.n = (scalar subquery)))
                      Subquery: (scalar subquery)
                        Projection: max(r.n)
                          Aggregate: groupBy=[], aggr=[max(r.n)]
                            SubqueryAlias: r
                              Projection: k AS key, count(*) AS n
                                Projection: k, count(*)
                                  Aggregate: groupBy=[k], aggr=[count(*)]
                                    TableScan: t
                      Join: CROSS
                        SubqueryAlias: a
                          Projection: k AS key, count(*) AS n  (shared: printed above)
                        SubqueryAlias: b
                          Projection: k AS key, count(*) AS n  (shared: printed above)
                """);
    }

    @Test
    void laterWithQueriesSeeEarlierOnesAndHideTables() {
        assertThat(plan("WITH t AS (SELECT a FROM u), s AS (SELECT a + 1 AS b FROM t) SELECT b FROM s")).isEqualTo("""
                Projection: s.b AS b
                  SubqueryAlias: s
                    Projection: (t.a + 1) AS b
                      SubqueryAlias: t
                        Projection: a
                          TableScan: u
                """);
        assertThatThrownBy(() -> logical("WITH a AS (SELECT 1), a AS (SELECT 2) SELECT * FROM a"))
                .isInstanceOf(SluiceException.class).hasMessage("WITH name 'a' is defined twice");
    }

    @Test
    void dateIntervalArithmetic() {
        assertThat(plan("""
                SELECT day - INTERVAL '90' DAY, day + INTERVAL '3' MONTH, INTERVAL '1' YEAR + day,
                       day + INTERVAL '1-2' YEAR TO MONTH, date_add(day, 7), date_sub(day, INTERVAL '2' WEEK)
                FROM t""")).isEqualTo("""
                Projection: (day - INTERVAL '90' DAY), (day + INTERVAL '3' MONTH), (day + INTERVAL '12' MONTH), \
                (day + INTERVAL '14' MONTH), date_add(day, 7), (day - INTERVAL '14' DAY)
                  TableScan: t
                """);
        assertThatThrownBy(() -> logical("SELECT k + INTERVAL '1' DAY FROM t")).isInstanceOf(SluiceException.class)
                .hasMessage("an interval can only be added to a DATE or TIMESTAMP, not to VARCHAR (k)");
    }

    @Test
    void distinctAggregateIsTwoAggregations() {
        assertThat(plan("SELECT k, count(DISTINCT v) AS n FROM t GROUP BY k HAVING count(DISTINCT v) > 1")).isEqualTo("""
                Projection: k, count(DISTINCT v) AS n
                  Filter: (count(DISTINCT v) > 1)
                    Projection: k, count(v) AS count(DISTINCT v)
                      Aggregate: groupBy=[k], aggr=[count(v)]
                        Aggregate: groupBy=[k, v], aggr=[]
                          TableScan: t
                """);
    }

    @Test
    void distinctAggregateBesidePlainOnesMergesPartials() {
        assertThat(plan("SELECT sum(DISTINCT v), min(v), count(*), avg(v) FROM t")).isEqualTo("""
                Projection: sum(DISTINCT v), min(v), count(*), avg(v)
                  Projection: sum(v) AS sum(DISTINCT v), min(min(v)) AS min(v), \
                CASE WHEN sum(count(*)) IS NULL THEN 0 ELSE sum(count(*)) END AS count(*), \
                (CAST(sum(sum(v)) AS float64) / CAST(sum(count(v)) AS float64)) AS avg(v)
                    Aggregate: groupBy=[], aggr=[sum(v), min(min(v)), sum(count(*)), sum(sum(v)), sum(count(v))]
                      Aggregate: groupBy=[v], aggr=[min(v), count(*), sum(v), count(v)]
                        TableScan: t
                """);
    }

    @Test
    void distinctAggregatesOverSeveralArgumentsExpandTheInput() {
        assertThat(plan("SELECT k, count(DISTINCT v), sum(DISTINCT d), count(*) FROM t GROUP BY k")).isEqualTo("""
                Projection: k, count(DISTINCT v), sum(DISTINCT d), count(*)
                  Projection: __key0 AS k, count(DISTINCT __distinct0) AS count(DISTINCT v), \
                sum(DISTINCT __distinct1) AS sum(DISTINCT d), count(__row) AS count(*)
                    Projection: __key0, count(__distinct0) AS count(DISTINCT __distinct0), \
                sum(__distinct1) AS sum(DISTINCT __distinct1), sum(count(__row)) AS count(__row)
                      Aggregate: groupBy=[__key0], aggr=[count(__distinct0), sum(__distinct1), sum(count(__row))]
                        Aggregate: groupBy=[__key0, __distinct0, __distinct1], aggr=[count(__row)]
                          Union: all
                            Projection: k AS __key0, CAST(NULL AS int64) AS __distinct0, \
                CAST(NULL AS decimal(10,2)) AS __distinct1, 1 AS __row
                              TableScan: t
                            Projection: k AS __key0, v AS __distinct0, CAST(NULL AS decimal(10,2)) AS __distinct1, \
                CAST(NULL AS int64) AS __row
                              TableScan: t
                            Projection: k AS __key0, CAST(NULL AS int64) AS __distinct0, d AS __distinct1, \
                CAST(NULL AS int64) AS __row
                              TableScan: t
                """);
    }

    @Test
    void rangeInFromIsSparksTableFunction() {
        assertThat(plan("SELECT id FROM range(-5, 5, -1, 3) AS r")).isEqualTo("""
                Projection: r.id AS id
                  SubqueryAlias: r
                    Range: start=-5 end=5 step=-1 partitions=3
                """);
        assertThat(plan("SELECT * FROM range(3) r JOIN t ON r.id = t.v")).contains("Join: INNER keys=[r.id = t.v]");
        assertThatThrownBy(() -> plan("SELECT * FROM range(1, 2, 0)")).isInstanceOf(SluiceException.class)
                .hasMessage("line 1, column 15: range(1, 2, 0): the step must not be 0");
        assertThatThrownBy(() -> plan("SELECT * FROM range(x)")).hasMessage("line 1, column 21: range() takes integer literals, not x");
        assertThatThrownBy(() -> plan("SELECT * FROM foo(1)")).hasMessageContaining("line 1, column 15: unknown table function foo()");
        assertThatThrownBy(() -> plan("SELECT * FROM range(-9223372036854775807, 9223372036854775807)"))
                .hasMessageContaining("has 18446744073709551614 values, more than a BIGINT counts");
    }

    @Test
    void unpivotKeepsTheOtherColumnsAsIdsAndLeavesNullsOutUnlessIncluded() {
        assertThat(plan("SELECT * FROM t UNPIVOT (val FOR col IN (v, d))")).contains("Filter: val IS NOT NULL")
                .contains("explode(map('v', t.v, 'd', t.d)) AS col, val");
        assertThat(plan("SELECT * FROM t UNPIVOT INCLUDE NULLS (val FOR col IN (v, d)) AS u")).doesNotContain("IS NOT NULL");
        assertThatThrownBy(() -> plan("SELECT * FROM t UNPIVOT ((a, b) FOR col IN ((k, v)))")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("UNPIVOT of several value or name columns is not supported by Sluice");
    }
}
