package io.sluice.sql;

import static io.sluice.sql.SqlTestTables.catalog;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.logical.plan.LogicalPlan;
import org.junit.jupiter.api.Test;

/** Spark's spellings read by the SQL front end: the text rewrite and what it plans to. */
class SparkSyntaxTest {
    private static String rewrite(String sql) {
        return SparkSyntax.rewrite(sql, SqlDialect.SPARK).text();
    }

    private static LogicalPlan plan(String sql) {
        return plan(sql, SqlDialect.SPARK);
    }

    private static LogicalPlan plan(String sql, SqlDialect dialect) {
        return plan(sql, catalog(), dialect);
    }

    private static LogicalPlan plan(String sql, Catalog catalog, SqlDialect dialect) {
        return ((Statement.Query) SqlFrontEnd.parse(sql, catalog, dialect)).plan();
    }

    @Test
    void backticksQuoteNamesAndDoubleQuotesAreStrings() {
        assertThat(rewrite("SELECT `a b`, `x``y`, `q\"r`, \"text\", \"it's\" FROM `t`"))
                .isEqualTo("SELECT \"a b\", \"x`y\", \"q\"\"r\", 'text', 'it''s' FROM \"t\"");
        assertThat(SparkSyntax.rewrite("SELECT \"name\" FROM t", SqlDialect.ANSI).text()).isEqualTo("SELECT \"name\" FROM t");
        assertThat(rewrite("SELECT 'it\\'s', '-- not a comment', \"a\\\"b\" -- `kept`\n/* \"kept\" */"))
                .isEqualTo("SELECT 'it''s', '-- not a comment', 'a\"b' -- `kept`\n/* \"kept\" */");
    }

    @Test
    void backslashEscapesAreSparksInSparkAndOrdinaryInAnsi() {
        // Spark's '\\d+' is the regex \d+; '\\' is one backslash and ends where it should
        assertThat(rewrite("SELECT '\\\\d+', 'a\\\\', 'x', 'tab\\there', '\\u00e9\\101', '50\\%', 'it\\'s'"))
                .isEqualTo("SELECT '\\d+', 'a\\', 'x', 'tab\there', '\u00e9A', '50\\%', 'it''s'");
        assertThat(SparkSyntax.rewrite("SELECT 'a\\', 'b'", SqlDialect.ANSI).text()).isEqualTo("SELECT 'a\\', 'b'");
    }

    @Test
    void sparkOperatorsBecomeCalcites() {
        assertThat(rewrite("SELECT a <=> b, s REGEXP 'x', 7 DIV 2, div FROM t")).isEqualTo(
                "SELECT a  IS NOT DISTINCT FROM  b, s RLIKE  'x', 7 /   2, div FROM t");
        assertThat(SparkSyntax.rewrite("SELECT 7 DIV 2", SqlDialect.SPARK).integerDivisions()).containsExactly(9);
        assertThat(rewrite("SELECT 2.5D, 1e3D, 7L, 10 FROM t")).isEqualTo("SELECT 2.5E0, 1e3 , 7 , 10 FROM t");
        assertThat(rewrite("SELECT first(v, true), LAST (v) FROM t ORDER BY 1 NULLS FIRST"))
                .isEqualTo("SELECT first_value(v, true), LAST_value (v) FROM t ORDER BY 1 NULLS FIRST");
        assertThat(plan("SELECT k, first(v, true) AS f FROM t GROUP BY k").schema().names()).containsExactly("k", "f");
        assertThat(rewrite("SELECT /*+ REPARTITION(4, k) */ k FROM t TABLESAMPLE (3 ROWS)"))
                .isEqualTo("SELECT /*+ \"REPARTITION\"(\"4\", k) */ k FROM t TABLESAMPLE SYSTEM(0) REPEATABLE(3)");
    }

    @Test
    void quotedNamesWithSpacesAndBackticksResolve() {
        assertThat(plan("SELECT `the key`, `a``b` FROM (SELECT k AS `the key`, v AS `a``b` FROM t)").schema().names())
                .containsExactly("the key", "a`b");
        assertThat(plan("SELECT o.`the key` FROM (SELECT k AS `the key`, v AS `a``b` FROM t) AS o WHERE o.`a``b` > 1")
                .schema().names()).containsExactly("the key");
        assertThat(plan("WITH `odd_names` AS (SELECT k AS `the key`, k AS `select`, v AS `a``b` FROM t) "
                + "SELECT `the key`, `select`, `a``b` FROM `odd_names`").schema().names())
                .containsExactly("the key", "select", "a`b");
    }

    @Test
    void divIsIntegralAndSlashFractional() {
        LogicalPlan plan = plan("SELECT v DIV 2 AS q, v / 2 AS r FROM t");
        assertThat(plan.schema().field("q").type()).isEqualTo(DataType.INT64);
        assertThat(plan.schema().field("r").type()).isEqualTo(DataType.FLOAT64);
    }

    @Test
    void nullsFirstInAnAscendingSparkSortAndLastInAnsi() {
        assertThat(plan("SELECT k FROM t ORDER BY k").explain()).contains("k ASC NULLS FIRST");
        assertThat(plan("SELECT k FROM t ORDER BY k DESC").explain()).contains("k DESC NULLS LAST");
        assertThat(plan("SELECT k FROM t ORDER BY k", SqlDialect.ANSI).explain()).contains("k ASC NULLS LAST");
    }

    @Test
    void distributeAndSortByPlanARepartitionAndASortWithinPartitions() {
        String explain = plan("SELECT k, v FROM t DISTRIBUTE BY k SORT BY v DESC").explain();
        assertThat(explain).contains("SortWithinPartitions: v DESC NULLS LAST", "Repartition: hash [k]");
        assertThat(plan("SELECT k FROM t CLUSTER BY k").explain()).contains("SortWithinPartitions: k ASC NULLS FIRST",
                "Repartition: hash [k]");
        assertThat(plan("SELECT /*+ REPARTITION(4, k) */ k FROM t").explain()).contains("Repartition: hash [k], partitions=4");
        assertThat(plan("SELECT /*+ COALESCE(2) */ k FROM t").explain()).contains("Repartition: round robin, partitions=2");
    }

    @Test
    void badHintsAndClausesAreErrorsNamingThem() {
        assertThatThrownBy(() -> plan("SELECT /*+ REPARTITION(3, nope) */ k FROM t")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("unknown column 'nope'");
        assertThatThrownBy(() -> plan("SELECT /*+ SHUFFLE_MERGE(t) */ k FROM t")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("SHUFFLE_MERGE");
        assertThatThrownBy(() -> plan("SELECT k FROM t CLUSTER BY k SORT BY k")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("CLUSTER BY cannot go with DISTRIBUTE BY or SORT BY");
        assertThatThrownBy(() -> plan("SELECT k FROM t TABLESAMPLE (BUCKET 5 OUT OF 4)")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("the sampling fraction must be 0 to 1 (0 to 100 PERCENT), not 1.25");
        assertThatThrownBy(() -> plan("SELECT k FROM t TABLESAMPLE (BUCKET 1 OUT OF 0)")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("TABLESAMPLE (BUCKET 1 OUT OF 0): the bucket count must be above 0");
    }

    @Test
    void aStoredViewIsReadInTheDialectItWasCreatedIn() {
        InMemoryCatalog catalog = catalog();
        // stored views read no temporary table (a view that does is temporary itself)
        store(catalog, "CREATE VIEW q AS SELECT v DIV 2 AS d, v / 2 AS r FROM (VALUES (7)) AS x(v)", SqlDialect.SPARK);
        store(catalog, "CREATE VIEW a AS SELECT k FROM (VALUES (1)) AS x(k) ORDER BY k", SqlDialect.ANSI);
        store(catalog, "CREATE VIEW s AS SELECT k FROM (VALUES (1)) AS x(k) ORDER BY k", SqlDialect.SPARK);
        assertThat(catalog.catalogView("q").sql()).isEqualTo("SELECT v DIV 2 AS d, v / 2 AS r FROM (VALUES (7)) AS x(v)");
        assertThat(catalog.catalogView("a").dialect()).isEqualTo(SqlDialect.ANSI);
        for (SqlDialect reader : SqlDialect.values()) {
            LogicalPlan q = plan("SELECT d, r FROM q", catalog, reader);
            assertThat(q.schema().field("d").type()).as("DIV stays integral").isEqualTo(DataType.INT64);
            assertThat(q.schema().field("r").type()).isEqualTo(DataType.FLOAT64);
            assertThat(plan("SELECT * FROM a", catalog, reader).explain()).contains("k ASC NULLS LAST").doesNotContain("NULLS FIRST");
            assertThat(plan("SELECT * FROM s", catalog, reader).explain()).contains("k ASC NULLS FIRST");
        }
    }

    @Test
    void aSemicolonAfterAnEscapedQuoteDoesNotEndTheStatement() {
        assertThat(SqlFrontEnd.splitStatements("SELECT 'a\\'; b' AS s; SELECT 2")).containsExactly("SELECT 'a\\'; b' AS s",
                "SELECT 2");
        assertThat(plan("SELECT 'a\\'; b' AS s").schema().names()).containsExactly("s");
        assertThat(SqlFrontEnd.splitStatements("SELECT 'a\\'; SELECT 2", SqlDialect.ANSI)).hasSize(2);
        assertThat(plan("SELECT s FROM (SELECT 1) LATERAL VIEW explode(array('y\\')z')) e AS s")
                .schema().names()).containsExactly("s");
    }

    private static void store(InMemoryCatalog catalog, String sql, SqlDialect dialect) {
        Statement.CreateView view = (Statement.CreateView) SqlFrontEnd.parse(sql, catalog, dialect);
        catalog.createView(view.stored(), view.replace());
    }

    @Test
    void organizationClausesEndAnyQueryAndGoBeforeLimit() {
        assertThat(plan("SELECT k, v FROM t DISTRIBUTE BY k SORT BY v LIMIT 3").explain()).isEqualTo("""
                Limit: fetch=3
                  SortWithinPartitions: v ASC NULLS FIRST
                    Repartition: hash [k]
                      Projection: k, v
                        TableScan: t
                """);
        assertThat(plan("SELECT s.k FROM (SELECT k FROM t CLUSTER BY k) s").explain()).isEqualTo("""
                Projection: s.k AS k
                  SubqueryAlias: s
                    SortWithinPartitions: k ASC NULLS FIRST
                      Repartition: hash [k]
                        Projection: k
                          TableScan: t
                """);
        assertThat(plan("WITH c AS (SELECT k FROM t SORT BY k DESC) SELECT k FROM c").explain()).isEqualTo("""
                Projection: c.k AS k
                  SubqueryAlias: c
                    SortWithinPartitions: k DESC NULLS LAST
                      Projection: k
                        TableScan: t
                """);
        assertThat(plan("(SELECT k FROM t SORT BY k) UNION ALL (SELECT k FROM t DISTRIBUTE BY k) LIMIT 2").explain())
                .isEqualTo("""
                Limit: fetch=2
                  Union: all
                    SortWithinPartitions: k ASC NULLS FIRST
                      Projection: k
                        TableScan: t
                    Repartition: hash [k]
                      Projection: k
                        TableScan: t
                """);
        assertThat(plan("SELECT k FROM t WHERE v IN (SELECT v FROM t DISTRIBUTE BY v)").explain()).contains("Repartition: hash [v]");
    }

    @Test
    void organizationClausesOutOfPlaceAreErrorsNamingThem() {
        assertThatThrownBy(() -> plan("SELECT k FROM t ORDER BY k SORT BY k")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("Combination of ORDER BY/SORT BY/DISTRIBUTE BY/CLUSTER BY is not supported");
        assertThatThrownBy(() -> plan("SELECT k FROM (SELECT k FROM t ORDER BY k DISTRIBUTE BY k) s"))
                .isInstanceOf(SluiceException.class).hasMessageContaining("Combination of ORDER BY");
        assertThatThrownBy(() -> plan("SELECT count(k SORT BY k) FROM t")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("SORT BY must end a query");
        assertThatThrownBy(() -> plan("SELECT k FROM t DISTRIBUTE BY nope")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("nope");
    }

    @Test
    void tableSamplesAreBernoulliSamplesOrLimitsWithTheAliasAfterThem() {
        assertThat(rewrite("SELECT x.k FROM t TABLESAMPLE (10 PERCENT) REPEATABLE (7) AS x WHERE x.k > 1"))
                .isEqualTo("SELECT x.k FROM t AS x TABLESAMPLE BERNOULLI(10) REPEATABLE(7) WHERE x.k > 1");
        assertThat(rewrite("SELECT * FROM t TABLESAMPLE (BUCKET 1 OUT OF 3) s JOIN u TABLESAMPLE (2 ROWS) ON true"))
                .isEqualTo("SELECT * FROM t AS s TABLESAMPLE BERNOULLI(33.333333333333333333333333333333) "
                        + "JOIN u TABLESAMPLE SYSTEM(0) REPEATABLE(2) ON true");
        assertThat(plan("SELECT x.k FROM t TABLESAMPLE (BUCKET 1 OUT OF 4) REPEATABLE (3) x").explain()).isEqualTo("""
                Projection: k
                  Sample: fraction=0.25, seed=3
                    TableScan: t
                """);
        assertThat(plan("SELECT k FROM t TABLESAMPLE (2.5 PERCENT)").explain()).contains("Sample: fraction=0.025, seed=");
        assertThat(plan("SELECT k FROM t TABLESAMPLE (100 PERCENT)").explain()).doesNotContain("Sample");
        assertThat(plan("SELECT k FROM t TABLESAMPLE (4 ROWS)").explain()).contains("Limit: fetch=4");
    }

    @Test
    void lambdaFunctionsParseAndType() {
        assertThat(rewrite("SELECT exists(a, x -> x > 1), filter(a, x -> true), count(*) FILTER (WHERE k > 1) FROM t"
                + " WHERE EXISTS (SELECT 1) AND NOT exists(SELECT 2)"))
                .isEqualTo("SELECT \"exists\"(a, x -> x > 1), \"filter\"(a, x -> true), count(*) FILTER (WHERE k > 1) FROM t"
                        + " WHERE EXISTS (SELECT 1) AND NOT exists(SELECT 2)");
        LogicalPlan p = plan("SELECT transform(array(1, 2), (x, i) -> x * i) AS t, exists(array(1), x -> x > 0) AS e,"
                + " aggregate(array(1.5D), 0, (acc, x) -> acc + x) AS s, transform(array(1), k -> k + 1) AS k");
        assertThat(p.schema().field(0).type()).isEqualTo(DataType.list(DataType.INT64));
        assertThat(p.schema().field(1).type()).isEqualTo(DataType.BOOL);
        assertThat(p.schema().field(2).type()).isEqualTo(DataType.FLOAT64);
        assertThatThrownBy(() -> plan("SELECT transform(array(1), (a, b, c) -> a)")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("transform(): the lambda function").hasMessageContaining("not 3");
        assertThatThrownBy(() -> plan("SELECT aggregate(array(1), 0, x -> x)")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("aggregate(): the lambda function");
    }
}
