package io.sluice.sql;

import static io.sluice.sql.SqlTestTables.catalog;
import static io.sluice.sql.SqlTestTables.plan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import org.junit.jupiter.api.Test;

class SqlViewAndFunctionTest {
    @Test
    void createViewPlansItsQueryAndRenamesColumns() {
        Statement s = SqlFrontEnd.parse("CREATE OR REPLACE TEMP VIEW per_k (key, n) AS\nSELECT k, count(*) FROM t GROUP BY k;",
                catalog());
        assertThat(s).isInstanceOf(Statement.CreateView.class);
        Statement.CreateView view = (Statement.CreateView) s;
        assertThat(view.name()).isEqualTo("per_k");
        assertThat(view.replace()).isTrue();
        assertThat(view.plan().explain()).isEqualTo("""
                Projection: k AS key, count(*) AS n
                  Projection: k, count(*)
                    Aggregate: groupBy=[k], aggr=[count(*)]
                      TableScan: t
                """);
        assertThat(((Statement.CreateView) SqlFrontEnd.parse("create view \"V 1\" as select a from u", catalog())).replace())
                .isFalse();
    }

    @Test
    void viewIsReadLikeASubqueryAndHidesATable() {
        InMemoryCatalog catalog = catalog();
        Statement.CreateView view = (Statement.CreateView) SqlFrontEnd.parse("CREATE VIEW u AS SELECT k FROM t", catalog);
        catalog.registerView(view.name(), view.plan(), view.replace());
        assertThat(((Statement.Query) SqlFrontEnd.parse("SELECT x.k FROM u AS x", catalog)).plan().explain()).isEqualTo("""
                Projection: x.k AS k
                  SubqueryAlias: x
                    Projection: k
                      TableScan: t
                """);
        assertThatThrownBy(() -> catalog.registerView("U", view.plan(), false)).isInstanceOf(SluiceException.class)
                .hasMessage("view 'U' already exists; use CREATE OR REPLACE VIEW to replace it");
        assertThat(catalog.dropView("U")).isTrue();
        assertThat(catalog.view("u")).isNull();
    }

    @Test
    void showTablesAndDescribeAreConstantQueries() {
        assertThat(plan("SHOW TABLES")).isEqualTo("""
                Union: all
                  Projection: 't' AS name, 'table' AS kind
                    Aggregate: groupBy=[], aggr=[count(*)]
                      EmptyRelation: \n\
                  Projection: 'u' AS name, 'table' AS kind
                    Aggregate: groupBy=[], aggr=[count(*)]
                      EmptyRelation: \n""");
        assertThat(plan("DESCRIBE u")).isEqualTo("""
                Projection: 'a' AS column_name, 'int64' AS column_type
                  Aggregate: groupBy=[], aggr=[count(*)]
                    EmptyRelation: \n""");
        assertThat(SqlFrontEnd.parse("SHOW TABLES", new InMemoryCatalog()).toString()).contains("EmptyRelation");
    }

    @Test
    void dropViewAndErrors() {
        assertThat(SqlFrontEnd.parse("DROP VIEW IF EXISTS v;", catalog())).isEqualTo(new Statement.DropView("v", true));
        assertThat(SqlFrontEnd.parse("drop view v", catalog())).isEqualTo(new Statement.DropView("v", false));
        assertThatThrownBy(() -> SqlFrontEnd.parse("DROP VIEW", catalog())).isInstanceOf(SluiceException.class)
                .hasMessageStartingWith("SQL syntax error: expected DROP VIEW [IF EXISTS] <name>");
        assertThatThrownBy(() -> SqlFrontEnd.parse("CREATE VIEW v AS SELECT nope FROM t", catalog()))
                .isInstanceOf(SluiceException.class).hasMessageStartingWith("line 1, column 25: unknown column 'nope'");
        assertThatThrownBy(() -> SqlFrontEnd.parse("CREATE VIEW v (a, b) AS SELECT k FROM t", catalog()))
                .isInstanceOf(SluiceException.class).hasMessage("view v names 2 columns but its query has 1: k");
    }

    @Test
    void functions() {
        assertThat(plan("""
                SELECT upper(k), k || 'x', trim(k), trim(LEADING FROM k), position('a' IN k), length(k),
                       coalesce(v, 0), nullif(v, 1), round(d, 1), floor(d), ceil(v), abs(v), year(day),
                       date_trunc('month', day), replace(k, 'a', 'b'), starts_with(k, 'a'), concat(k, v)
                FROM t""")).isEqualTo("""
                Projection: upper(k), (k || 'x'), trim(k), ltrim(k), strpos(k, 'a'), length(k), \
                CASE WHEN v IS NOT NULL THEN v ELSE 0 END, CASE WHEN (v = 1) THEN NULL ELSE v END, round(d, 1), floor(d), \
                ceil(v), abs(v), extract(YEAR FROM day), date_trunc('month', day), replace(k, 'a', 'b'), \
                starts_with(k, 'a'), concat(k, v)
                  TableScan: t
                """);
    }

    @Test
    void functionErrors() {
        assertThatThrownBy(() -> plan("SELECT upper(v) FROM t")).isInstanceOf(SluiceException.class)
                .hasMessage("upper() needs utf8 arguments, not int64 (v)");
        assertThatThrownBy(() -> plan("SELECT round(d, v) FROM t")).isInstanceOf(SluiceException.class)
                .hasMessage("round(x, digits) needs a constant number of digits, not v");
        assertThatThrownBy(() -> plan("SELECT date_trunc('fortnight', day) FROM t")).isInstanceOf(SluiceException.class)
                .hasMessage("date_trunc('fortnight', ...): the part must be one of year, quarter, month, week, day, hour,"
                        + " minute, second, millisecond, microsecond");
        assertThatThrownBy(() -> plan("SELECT replace(k) FROM t")).isInstanceOf(SluiceException.class)
                .hasMessage("replace() takes 3 arguments, not 1: replace(str, search, replace)");
        assertThatThrownBy(() -> plan("SELECT trim(BOTH 'x' FROM k) FROM t")).isInstanceOf(SluiceException.class)
                .hasMessage("unsupported SQL: trim of characters other than spaces");
    }
}
