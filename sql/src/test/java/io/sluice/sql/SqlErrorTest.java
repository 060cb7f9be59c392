package io.sluice.sql;

import static io.sluice.sql.SqlTestTables.catalog;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

class SqlErrorTest {
    private static AbstractThrowableAssert<?, ? extends Throwable> assertError(String sql) {
        return assertThatThrownBy(() -> SqlFrontEnd.parse(sql, catalog())).isInstanceOf(SluiceException.class);
    }

    @Test
    void syntaxErrorHasLineAndColumnOnOneLine() {
        assertError("SELECT k\nFROM t WHERE FROM")
                .hasMessageStartingWith("SQL syntax error at line 2, column 14: ")
                .hasMessageNotContaining("\n");
        assertError("SELECT k FROM t WHERE v >")
                .hasMessageStartingWith("SQL syntax error at line 1, column 25: ")
                .hasMessageNotContaining("\n");
    }

    @Test
    void wordReservedInDuckDbTooUsedAsAColumnNameGetsAHint() {
        assertError("SELECT k FROM t WHERE order = 1")
                .hasMessage("SQL syntax error at line 1, column 23: Encountered \"order\""
                        + " ('order' is a reserved word; write \"order\" to use it as a name)");
    }

    @Test
    void positionOfAnUnknownNameAfterAQuotedSoftKeywordIsInTheUsersText() {
        assertError("SELECT value, nope FROM (SELECT v AS value FROM t)")
                .hasMessageStartingWith("line 1, column 15: unknown column 'nope'");
    }

    @Test
    void positionOfAnErrorAfterAQuotedSoftKeywordIsInTheUsersText() {
        assertError("SELECT day, value FROM t WHERE v >")
                .hasMessageStartingWith("SQL syntax error at line 1, column 34: ");
    }

    @Test
    void unknownTableListsKnownTables() {
        assertError("SELECT * FROM nope").hasMessage("line 1, column 15: unknown table 'nope'; known tables: t, u");
    }

    @Test
    void closeNamesAreSuggested() {
        InMemoryCatalog catalog = SqlTestTables.catalog();
        catalog.register(new io.sluice.logical.source.TableSource("lineitem", io.sluice.logical.source.FileFormat.PARQUET,
                "/data/l", io.sluice.common.types.Schema.of(
                        new io.sluice.common.types.Field("l_quantity", io.sluice.common.types.DataType.INT64))));
        assertThatThrownBy(() -> SqlFrontEnd.parse("SELECT *\nFROM lineitme", catalog))
                .hasMessage("line 2, column 6: unknown table 'lineitme'; did you mean 'lineitem'? known tables: lineitem, t, u");
        assertThatThrownBy(() -> SqlFrontEnd.parse("SELECT sum(l_quantiy) FROM lineitem", catalog))
                .hasMessage("line 1, column 12: unknown column 'l_quantiy'; did you mean 'l_quantity'?"
                        + " available columns: l_quantity");
        assertThatThrownBy(() -> SqlFrontEnd.parse("SELECT 1 FROM lineitem, t WHERE lineitm.l_quantity > 1", catalog))
                .hasMessage("line 1, column 33: unknown table or alias 'lineitm' in 'lineitm.l_quantity'; did you mean"
                        + " 'lineitem'? the query reads lineitem, t");
        assertError("SELECT k FROM t AS x WHERE x.flagg").hasMessage(
                "line 1, column 28: unknown column 'x.flagg'; did you mean 'flag'? available columns: k, v, d, day, flag");
    }

    @Test
    void unknownColumnListsColumns() {
        assertError("SELECT k, nope FROM t")
                .hasMessage("line 1, column 11: unknown column 'nope'; available columns: k, v, d, day, flag");
        assertError("SELECT k FROM t ORDER BY nope").hasMessageContaining("unknown column 'nope'");
    }

    @Test
    void qualifierMustNameTheTableOrItsAlias() {
        assertError("SELECT u.k FROM t")
                .hasMessage("line 1, column 8: unknown table or alias 'u' in 'u.k'; the query reads table 't'");
        assertError("SELECT z.* FROM t AS x")
                .hasMessage("unknown table or alias 'z' in 'z.*'; the query reads table 't' as 'x'");
    }

    @Test
    void nonGroupedColumn() {
        assertError("SELECT k, v FROM t GROUP BY k")
                .hasMessage("column 'v' must appear in the GROUP BY clause or be used in an aggregate function");
        assertError("SELECT k, sum(v) FROM t")
                .hasMessage("column 'k' must appear in the GROUP BY clause or be used in an aggregate function");
        assertError("SELECT v FROM t GROUP BY ()")
                .hasMessage("column 'v' must appear in the GROUP BY clause or be used in an aggregate function");
        assertError("SELECT k FROM t GROUP BY k ORDER BY v")
                .hasMessage("column 'v' must appear in the GROUP BY clause or be used in an aggregate function");
    }

    @Test
    void unsupportedConstructsAreNamed() {
        assertError("SELECT * FROM t NATURAL JOIN u").hasMessage("unsupported SQL: NATURAL JOIN");
        assertError("SELECT soundex(k) FROM t").hasMessage("unknown function 'soundex'; SHOW FUNCTIONS lists them");
        assertError("SELECT regexp_extrat(k, 'a') FROM t")
                .hasMessage("unknown function 'regexp_extrat'; did you mean 'regexp_extract'? SHOW FUNCTIONS lists them");
        assertError("SELECT count(DISTINCT v) OVER () FROM t").hasMessage("unsupported SQL: DISTINCT in window function count()");
        assertError("SELECT rank() IGNORE NULLS OVER (ORDER BY v) FROM t")
                .hasMessage("IGNORE NULLS applies to lag, lead, first_value, last_value and nth_value, not rank()");
        assertError("SELECT sum(v) OVER (ORDER BY day RANGE BETWEEN INTERVAL '1' MONTH PRECEDING AND CURRENT ROW) FROM t")
                .hasMessageStartingWith("unsupported SQL: window frame offset");
        assertError("SELECT CAST(v AS TIME) FROM t").hasMessage("unsupported SQL: cast to TIME");
        assertError("SELECT k FROM t WHERE day > DATE '2024-01-01' - INTERVAL '1 02' DAY TO HOUR")
                .hasMessage("unsupported SQL: INTERVAL DAY_TO_HOUR (intervals of YEAR, MONTH, WEEK, DAY, HOUR, MINUTE and"
                        + " SECOND are supported)");
        assertError("SELECT k FROM t WHERE k LIKE 'a!%' ESCAPE '!'").hasMessage("unsupported SQL: LIKE ... ESCAPE");
        assertError("SELECT k FROM t WHERE k LIKE k").hasMessage("unsupported SQL: LIKE with a pattern that is not a string constant");
        assertError("DELETE FROM t WHERE v > 1").hasMessageContaining("DELETE");
    }

    @Test
    void otherUserErrors() {
        assertError("SELECT k FROM t ORDER BY 3").hasMessage("ORDER BY position 3 is not in the select list (1 to 1)");
        assertError("SELECT DISTINCT k FROM t ORDER BY v")
                .hasMessage("for SELECT DISTINCT, ORDER BY expressions must appear in the select list: v");
        assertError("SELECT k FROM t WHERE sum(v) > 1").hasMessageContaining("aggregate functions are not allowed in WHERE");
        assertError("SELECT sum(sum(v)) FROM t").hasMessageContaining("aggregate calls cannot be nested");
        assertError("SELECT k FROM t WHERE v").hasMessageContaining("must be boolean");
        assertError("SELECT k FROM t WHERE \"day\" = DATE '2024-02-30'").hasMessageContaining("invalid DATE literal");
        assertError("SELECT k FROM t WHERE v LIKE '1%'").hasMessage("LIKE needs a string operand, not int64 (v)");
        assertError("SELECT CASE WHEN flag THEN k ELSE v END FROM t")
                .hasMessage("CASE results have incompatible types int64 and utf8");
        assertError("SELECT sum(k) FROM t").hasMessage("sum() needs a numeric argument, not utf8");
    }
}
