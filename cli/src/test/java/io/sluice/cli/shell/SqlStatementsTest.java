package io.sluice.cli.shell;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.cli.shell.SqlStatements.Statement;
import io.sluice.sql.SqlDialect;
import org.junit.jupiter.api.Test;

class SqlStatementsTest {
    @Test
    void statementsKeepTheLineTheyStartOn() {
        String script = "CREATE VIEW v AS SELECT 1 AS a;\n\n-- a comment; not a statement\nSELECT a,\n  ';' AS s\nFROM v; SELECT 2;\n";
        assertThat(SqlStatements.split(script)).containsExactly(
                new Statement("CREATE VIEW v AS SELECT 1 AS a", 1),
                new Statement("-- a comment; not a statement\nSELECT a,\n  ';' AS s\nFROM v", 3),
                new Statement("SELECT 2", 6));
    }

    @Test
    void anEntryIsCompleteOnceEveryStatementEndsOutsideQuotesAndComments() {
        assertThat(SqlStatements.complete("SELECT 1;", SqlDialect.SPARK)).isTrue();
        assertThat(SqlStatements.complete("SELECT 1;\n  ", SqlDialect.SPARK)).isTrue();
        assertThat(SqlStatements.complete("SELECT 1; -- done", SqlDialect.SPARK)).isTrue();
        assertThat(SqlStatements.complete("SELECT 1; SELECT 2;", SqlDialect.SPARK)).isTrue();
        assertThat(SqlStatements.complete("", SqlDialect.SPARK)).as("an empty entry just returns to the prompt").isTrue();

        assertThat(SqlStatements.complete("SELECT 1", SqlDialect.SPARK)).isFalse();
        assertThat(SqlStatements.complete("SELECT 1,\n  2", SqlDialect.SPARK)).isFalse();
        assertThat(SqlStatements.complete("SELECT 1; SELECT 2", SqlDialect.SPARK)).isFalse();
        assertThat(SqlStatements.complete("SELECT 'a;", SqlDialect.SPARK)).as("';' inside an open quote").isFalse();
        assertThat(SqlStatements.complete("SELECT \"a;", SqlDialect.SPARK)).as("';' inside an open quoted name").isFalse();
        assertThat(SqlStatements.complete("SELECT 1 -- the end;", SqlDialect.SPARK)).as("';' inside a line comment").isFalse();
        assertThat(SqlStatements.complete("SELECT 1 /* the end; */", SqlDialect.SPARK)).as("';' inside a block comment").isFalse();
        assertThat(SqlStatements.complete("SELECT 1; /* open", SqlDialect.SPARK)).as("an open comment").isFalse();
    }

    @Test
    void statementKindsByTheirFirstWord() {
        assertThat(StatementKind.of("SELECT 1")).isEqualTo(StatementKind.QUERY);
        assertThat(StatementKind.of("  -- why\n /* how */ (select 1) union all (select 2)")).isEqualTo(StatementKind.QUERY);
        assertThat(StatementKind.of("with t as (select 1) select * from t")).isEqualTo(StatementKind.QUERY);
        assertThat(StatementKind.of("SHOW TABLES")).isEqualTo(StatementKind.QUERY);
        assertThat(StatementKind.of("describe t")).isEqualTo(StatementKind.QUERY);
        assertThat(StatementKind.of("EXPLAIN SELECT 1")).isEqualTo(StatementKind.QUERY);
        assertThat(StatementKind.of("VALUES (1)")).isEqualTo(StatementKind.QUERY);
        assertThat(StatementKind.of("SET sluice.x = 1")).isEqualTo(StatementKind.SETTING);
        assertThat(StatementKind.of("reset")).isEqualTo(StatementKind.RESET);
        assertThat(StatementKind.of("CREATE VIEW v AS SELECT 1")).isEqualTo(StatementKind.COMMAND);
        assertThat(StatementKind.of("INSERT INTO t SELECT 1")).isEqualTo(StatementKind.COMMAND);
        assertThat(StatementKind.of("DROP TABLE t")).isEqualTo(StatementKind.COMMAND);
    }

    @Test
    void aBackslashEscapedQuoteDoesNotEndAStringInSparksDialect() {
        String script = "SELECT 'it\\'s; fine' AS s; SELECT 2;";
        assertThat(SqlStatements.split(script)).containsExactly(
                new Statement("SELECT 'it\\'s; fine' AS s", 1), new Statement("SELECT 2", 1));
        assertThat(SqlStatements.complete("SELECT 'a\\';", SqlDialect.SPARK)).as("the ';' is inside the string").isFalse();
        assertThat(SqlStatements.complete("SELECT 'a\\';", SqlDialect.ANSI)).as("a backslash is text in ansi").isTrue();
        assertThat(SqlStatements.split("SELECT `a;b` FROM t; SELECT 2")).as("a backticked name").hasSize(2);
    }

    @Test
    void aScriptIsReadInTheDialectItsSetStatementsChooseAsItRuns() {
        String script = "SET sluice.sql.dialect = ansi; SELECT 'a\\'; SELECT 'b'; SET sluice.sql.dialect=spark; SELECT 'c\\';'; SELECT 3";
        assertThat(SqlStatements.split(script)).extracting(Statement::text).containsExactly(
                "SET sluice.sql.dialect = ansi", "SELECT 'a\\'", "SELECT 'b'", "SET sluice.sql.dialect=spark",
                "SELECT 'c\\';'", "SELECT 3");
    }
}
