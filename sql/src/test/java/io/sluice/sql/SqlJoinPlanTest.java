package io.sluice.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.TableSource;
import org.junit.jupiter.api.Test;

/** Joins, unions and subqueries in FROM, as whole printed plans. */
class SqlJoinPlanTest {
    /** t(k, v, d, day, flag), u(a) and w(k, a, x): w shares k with t and a with u. */
    static InMemoryCatalog catalog() {
        InMemoryCatalog catalog = SqlTestTables.catalog();
        catalog.register(new TableSource("w", FileFormat.CSV, "/data/w.csv", Schema.of(
                new Field("k", DataType.UTF8), new Field("a", DataType.INT32), new Field("x", DataType.FLOAT64))));
        return catalog;
    }

    static LogicalPlan logical(String sql) {
        return ((Statement.Query) SqlFrontEnd.parse(sql, catalog())).plan();
    }

    static String plan(String sql) {
        return logical(sql).explain();
    }

    @Test
    void commaJoinIsACrossJoinUnderTheWhereFilter() {
        assertThat(plan("SELECT * FROM t, u WHERE t.v = u.a")).isEqualTo("""
                Projection: t.k AS k, t.v AS v, t.d AS d, t.day AS day, t.flag AS flag, u.a AS a
                  Filter: (t.v = u.a)
                    Join: CROSS
                      SubqueryAlias: t
                        TableScan: t
                      SubqueryAlias: u
                        TableScan: u
                """);
    }

    @Test
    void crossJoin() {
        assertThat(plan("SELECT v, a FROM t CROSS JOIN u")).isEqualTo("""
                Projection: t.v AS v, u.a AS a
                  Join: CROSS
                    SubqueryAlias: t
                      TableScan: t
                    SubqueryAlias: u
                      TableScan: u
                """);
    }

    @Test
    void onConditionSplitsIntoKeysAndResidualFilter() {
        assertThat(plan("""
                SELECT t.k, a FROM t JOIN u
                ON t.v = u.a AND u.a > 3 AND u.a * 2 = t.v + 1 AND t.k = 'x' AND (t.v = u.a OR flag)""")).isEqualTo("""
                Projection: t.k AS k, u.a AS a
                  Join: INNER keys=[t.v = u.a, (t.v + 1) = (u.a * 2)] filter=(((u.a > 3) AND (t.k = 'x')) AND ((t.v = u.a) OR t.flag))
                    SubqueryAlias: t
                      TableScan: t
                    SubqueryAlias: u
                      TableScan: u
                """);
    }

    @Test
    void outerJoinsKeepQualifiedNamesForColumnsOnBothSides() {
        String expected = """
                Projection: t.k, t.v AS v, t.d AS d, t.day AS day, t.flag AS flag, w.k, w.a AS a, w.x AS x
                  Join: %s keys=[t.k = w.k]
                    SubqueryAlias: t
                      TableScan: t
                    SubqueryAlias: w
                      TableScan: w
                """;
        assertThat(plan("SELECT * FROM t LEFT JOIN w ON t.k = w.k")).isEqualTo(expected.formatted("LEFT"));
        assertThat(plan("SELECT * FROM t LEFT OUTER JOIN w ON w.k = t.k")).isEqualTo(expected.formatted("LEFT"));
        assertThat(plan("SELECT * FROM t RIGHT JOIN w ON t.k = w.k")).isEqualTo(expected.formatted("RIGHT"));
        assertThat(plan("SELECT * FROM t FULL OUTER JOIN w ON t.k = w.k")).isEqualTo(expected.formatted("FULL"));
        assertThat(logical("SELECT * FROM t LEFT JOIN w ON t.k = w.k").schema().names())
                .containsExactly("t.k", "v", "d", "day", "flag", "w.k", "a", "x");
    }

    @Test
    void usingJoinsOnTheNamedColumnsAndShowsThemOnce() {
        assertThat(plan("SELECT * FROM t JOIN w USING (k)")).isEqualTo("""
                Projection: t.k AS k, t.v AS v, t.d AS d, t.day AS day, t.flag AS flag, w.a AS a, w.x AS x
                  Join: INNER keys=[t.k = w.k]
                    SubqueryAlias: t
                      TableScan: t
                    SubqueryAlias: w
                      TableScan: w
                """);
        assertThat(plan("SELECT k, x FROM t RIGHT JOIN w USING (k)")).isEqualTo("""
                Projection: w.k AS k, w.x AS x
                  Join: RIGHT keys=[t.k = w.k]
                    SubqueryAlias: t
                      TableScan: t
                    SubqueryAlias: w
                      TableScan: w
                """);
    }

    @Test
    void fullJoinUsingMergesTheColumns() {
        assertThat(plan("SELECT k, v, x FROM t FULL JOIN w USING (k)")).isEqualTo("""
                Projection: CASE WHEN t.k IS NOT NULL THEN t.k ELSE w.k END AS k, t.v AS v, w.x AS x
                  Join: FULL keys=[t.k = w.k]
                    SubqueryAlias: t
                      TableScan: t
                    SubqueryAlias: w
                      TableScan: w
                """);
    }

    @Test
    void threeWayJoinWithAliases() {
        assertThat(plan("""
                SELECT x.k, u.a, y.x FROM t AS x JOIN u ON x.v = u.a LEFT JOIN w y ON y.a = u.a AND y.k = x.k
                WHERE x.flag""")).isEqualTo("""
                Projection: x.k AS k, u.a AS a, y.x AS x
                  Filter: x.flag
                    Join: LEFT keys=[u.a = y.a, x.k = y.k]
                      Join: INNER keys=[x.v = u.a]
                        SubqueryAlias: x
                          TableScan: t
                        SubqueryAlias: u
                          TableScan: u
                      SubqueryAlias: y
                        TableScan: w
                """);
    }

    @Test
    void selfJoinNeedsAliasesAndKeepsQualifiedNamesWhenTheyClash() {
        assertThat(plan("SELECT x.k, y.k FROM t AS x JOIN t AS y ON x.v = y.v")).isEqualTo("""
                Projection: x.k, y.k
                  Join: INNER keys=[x.v = y.v]
                    SubqueryAlias: x
                      TableScan: t
                    SubqueryAlias: y
                      TableScan: t
                """);
        assertThatThrownBy(() -> logical("SELECT * FROM t, t")).isInstanceOf(SluiceException.class)
                .hasMessage("table name or alias 't' appears twice in FROM; give one of them a different alias");
    }

    @Test
    void groupByAndOrderByOverAJoin() {
        assertThat(plan("SELECT k, sum(x) AS total FROM t JOIN w USING (k) GROUP BY k ORDER BY total DESC")).isEqualTo("""
                Sort: total DESC NULLS LAST
                  Projection: t.k AS k, sum(w.x) AS total
                    Aggregate: groupBy=[t.k], aggr=[sum(w.x)]
                      Join: INNER keys=[t.k = w.k]
                        SubqueryAlias: t
                          TableScan: t
                        SubqueryAlias: w
                          TableScan: w
                """);
    }

    @Test
    void qualifiedStar() {
        assertThat(plan("SELECT t.*, w.x FROM t JOIN w ON t.k = w.k")).isEqualTo("""
                Projection: t.k AS k, t.v AS v, t.d AS d, t.day AS day, t.flag AS flag, w.x AS x
                  Join: INNER keys=[t.k = w.k]
                    SubqueryAlias: t
                      TableScan: t
                    SubqueryAlias: w
                      TableScan: w
                """);
    }

    @Test
    void subqueryInFrom() {
        assertThat(plan("SELECT s.k, n FROM (SELECT k, count(*) AS n FROM t GROUP BY k) AS s WHERE n > 1")).isEqualTo("""
                Projection: s.k AS k, s.n AS n
                  Filter: (s.n > 1)
                    SubqueryAlias: s
                      Projection: k, count(*) AS n
                        Aggregate: groupBy=[k], aggr=[count(*)]
                          TableScan: t
                """);
        assertThat(logical("SELECT * FROM (SELECT k, v + 1 FROM t) AS s").schema().names()).containsExactly("k", "(v + 1)");
    }

    @Test
    void subqueryJoinedToATable() {
        assertThat(plan("SELECT s.k, w.x FROM (SELECT k FROM t WHERE flag) s JOIN w ON s.k = w.k")).isEqualTo("""
                Projection: s.k AS k, w.x AS x
                  Join: INNER keys=[s.k = w.k]
                    SubqueryAlias: s
                      Projection: k
                        Filter: flag
                          TableScan: t
                    SubqueryAlias: w
                      TableScan: w
                """);
    }

    @Test
    void unionAllTakesTheFirstNamesAndCastsToWiderTypes() {
        assertThat(plan("SELECT k, v FROM t UNION ALL SELECT k, a FROM w")).isEqualTo("""
                Union: all
                  Projection: k, v
                    TableScan: t
                  Projection: k, CAST(a AS int64) AS a
                    Projection: k, a
                      TableScan: w
                """);
    }

    @Test
    void unionIsDistinctOverAllInputs() {
        assertThat(plan("SELECT v FROM t UNION ALL SELECT a FROM u UNION SELECT a FROM w ORDER BY v DESC LIMIT 3"))
                .isEqualTo("""
                Limit: fetch=3
                  Sort: v DESC NULLS LAST
                    Aggregate: groupBy=[v], aggr=[]
                      Union: all
                        Projection: v
                          TableScan: t
                        Projection: a
                          TableScan: u
                        Projection: CAST(a AS int64) AS a
                          Projection: a
                            TableScan: w
                """);
        assertThat(plan("SELECT v FROM t UNION SELECT a FROM u UNION ALL SELECT a FROM u")).isEqualTo("""
                Union: all
                  Aggregate: groupBy=[v], aggr=[]
                    Union: all
                      Projection: v
                        TableScan: t
                      Projection: a
                        TableScan: u
                  Projection: a
                    TableScan: u
                """);
    }

    @Test
    void unionInASubquery() {
        assertThat(plan("SELECT count(*) FROM (SELECT k FROM t UNION ALL SELECT k FROM w) AS s")).isEqualTo("""
                Projection: count(*)
                  Aggregate: groupBy=[], aggr=[count(*)]
                    SubqueryAlias: s
                      Union: all
                        Projection: k
                          TableScan: t
                        Projection: k
                          TableScan: w
                """);
    }

    @Test
    void joinErrorsNameWhatIsWrong() {
        assertThatThrownBy(() -> logical("SELECT k FROM t JOIN w ON t.k = w.k")).isInstanceOf(SluiceException.class)
                .hasMessage("line 1, column 8: column reference 'k' is ambiguous: it could be t.k or w.k; qualify it with a table name or alias");
        assertThatThrownBy(() -> logical("SELECT nope.k FROM t JOIN w ON t.k = w.k")).isInstanceOf(SluiceException.class)
                .hasMessage("line 1, column 8: unknown table or alias 'nope' in 'nope.k'; the query reads t, w");
        assertThatThrownBy(() -> logical("SELECT w.nope FROM t JOIN w AS q ON t.k = q.k")).isInstanceOf(SluiceException.class)
                .hasMessage("line 1, column 8: unknown table or alias 'w' in 'w.nope'; the query reads t, w AS q");
        assertThatThrownBy(() -> logical("SELECT t.nope FROM t JOIN w ON t.k = w.k")).isInstanceOf(SluiceException.class)
                .hasMessage("line 1, column 8: unknown column 't.nope'; available columns: t.k, t.v, t.d, t.day, t.flag");
        assertThatThrownBy(() -> logical("SELECT * FROM t JOIN w USING (x)")).isInstanceOf(SluiceException.class)
                .hasMessage("USING column 'x' is not a column of the left side of the join; available columns:"
                        + " t.k, t.v, t.d, t.day, t.flag");
        assertThatThrownBy(() -> logical("SELECT * FROM t JOIN w ON t.k = w.a")).isInstanceOf(SluiceException.class)
                .hasMessage("join keys t.k and w.a are not comparable: cannot compare utf8 with int32 using '='");
        assertThatThrownBy(() -> logical("SELECT * FROM t JOIN w ON t.v + w.a")).isInstanceOf(SluiceException.class)
                .hasMessage("join filter (t.v + w.a) must be boolean, not int64");
        assertThatThrownBy(() -> logical("SELECT * FROM (SELECT * FROM t JOIN w ON t.k = w.k) AS s"))
                .isInstanceOf(SluiceException.class)
                .hasMessage("relation 's' would have two columns named 's.k'; give the columns of its input distinct names");
        assertThatThrownBy(() -> logical("SELECT k FROM t UNION SELECT k, v FROM t")).isInstanceOf(SluiceException.class)
                .hasMessage("UNION inputs must have the same number of columns: input 1 has 1, input 2 has 2");
    }
}
