package io.sluice.api;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A filter's conjuncts hold as an AND that stops at the first FALSE: a conjunct that would fail on
 * a row an earlier conjunct removed (a zero divisor under Spark's ANSI mode, a cast of text that
 * spells no number) does not fail the query, whether the scan tests the pushed conjuncts while it
 * reads (decoding the other columns late, for the rows that pass) or a filter does above an input
 * that takes no filter. The answers are DuckDB's.
 */
class FilterConjunctOrderTest extends DuckDbComparisonTest {
    private static final String SPARK = "SET sluice.sql.dialect = spark;\n";

    @BeforeAll
    static void start() throws Exception {
        // b is 0 in every 5th row; s is 'x' in every 7th, else a number's text; pad is only read late
        both = DuckDbComparison.start(data, new DuckDbComparison.Table("t", "SELECT i AS id, i % 5 AS b, "
                + "CASE WHEN i % 7 = 0 THEN 'x' ELSE CAST(i % 100 AS VARCHAR) END AS s, 'padding of row ' || i AS pad "
                + "FROM range(0, 20000) r(i)", 2, 4000));
    }

    @Test
    void aDivisionIsNotEvaluatedOnTheRowsWhoseDivisorAnEarlierConjunctRemoved() throws Exception {
        String where = " WHERE b <> 0 AND id / b > 3000";
        assertSameRows(SPARK, "SELECT id, pad FROM t" + where);
        assertSameRows(SPARK, "SELECT id, pad FROM (SELECT * FROM t LIMIT 1000000) u" + where);
    }

    @Test
    void aCastIsNotEvaluatedOnTheTextAnEarlierConjunctRemoved() throws Exception {
        String where = " WHERE s <> 'x' AND CAST(s AS INTEGER) > 90";
        assertSameRows("", "SELECT id, s, pad FROM t" + where);
        assertSameRows("", "SELECT id, s, pad FROM (SELECT * FROM t LIMIT 1000000) u" + where);
    }

    /** The cluster runs {@code settings + sql}, DuckDB {@code sql}: the same rows in any order. */
    private static void assertSameRows(String settings, String sql) throws Exception {
        both.assertSameRows(both.session().sql(settings + sql), sql);
    }
}
