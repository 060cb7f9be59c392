package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Subqueries end to end on an embedded cluster, against DuckDB on the same Parquet files: IN, NOT IN
 * (with and without NULLs on either side), correlated [NOT] EXISTS, correlated scalar subqueries
 * (including groups without a match, and counts over no rows) and uncorrelated ones.
 */
class SubqueryTest extends DuckDbComparisonTest {
    @BeforeAll
    static void start() throws Exception {
        // a: ids 0..29, k with NULLs, v with NULLs. b: keys overlapping a's partly, with NULLs.
        // c: like b's keys but without NULLs. e: empty.
        both = DuckDbComparison.start(data,
                new DuckDbComparison.Table("a", "SELECT i AS id, CASE WHEN i % 7 = 3 THEN NULL ELSE i % 6 END AS k, "
                        + "CASE WHEN i % 5 = 4 THEN NULL ELSE i * 3 % 17 END AS v FROM range(0, 30) r(i)", 1),
                new DuckDbComparison.Table("b", "SELECT CASE WHEN i % 9 = 8 THEN NULL ELSE i % 4 END AS bk, i % 11 AS w, "
                        + "CAST(i * 1.25 AS DECIMAL(10,2)) AS amount FROM range(0, 20) r(i)", 1),
                new DuckDbComparison.Table("c", "SELECT i % 3 + 1 AS ck, i AS cw FROM range(0, 9) r(i)", 1),
                new DuckDbComparison.Table("e", "SELECT i AS ek FROM range(0, 0) r(i)", 1));
    }

    private static void assertSameAsDuckDb(String sql) throws Exception {
        both.assertSameRows(sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT id, k FROM a WHERE k IN (SELECT bk FROM b)",
        "SELECT id, k FROM a WHERE k IN (SELECT bk FROM b WHERE w > 5) AND v > 2",
        "SELECT id FROM a WHERE k IN (SELECT ek FROM e)",
        // NOT IN: NULLs in the subquery (b.bk) reject every row; without them (c.ck) NULL k is dropped
        "SELECT id, k FROM a WHERE k NOT IN (SELECT bk FROM b)",
        "SELECT id, k FROM a WHERE k NOT IN (SELECT ck FROM c)",
        "SELECT id, k FROM a WHERE k NOT IN (SELECT bk FROM b WHERE bk IS NOT NULL)",
        "SELECT id, k FROM a WHERE k NOT IN (SELECT ek FROM e)",
    })
    void inAndNotIn(String sql) throws Exception {
        assertSameAsDuckDb(sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT id, k FROM a WHERE EXISTS (SELECT * FROM b WHERE b.bk = a.k)",
        "SELECT id, k FROM a WHERE NOT EXISTS (SELECT * FROM b WHERE b.bk = a.k)",
        "SELECT id, k, v FROM a WHERE EXISTS (SELECT 1 FROM b WHERE bk = k AND w > v)",
        "SELECT id, k, v FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE bk = k AND w > v) AND id > 3",
        "SELECT id FROM a WHERE EXISTS (SELECT 1 FROM c WHERE ck = k) AND NOT EXISTS (SELECT 1 FROM b WHERE bk = k AND w = 0)",
        "SELECT id, v FROM a WHERE v IN (SELECT w FROM b WHERE b.bk = a.k)",
        "SELECT k, count(*) AS n FROM a WHERE EXISTS (SELECT 1 FROM b WHERE bk = k) GROUP BY k",
    })
    void correlatedExists(String sql) throws Exception {
        assertSameAsDuckDb(sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // groups without a match (k = 4, 5 and NULL) give NULL, so the comparison drops them
        "SELECT id, k, v FROM a WHERE v > (SELECT avg(w) FROM b WHERE bk = k)",
        "SELECT id, k, (SELECT sum(amount) FROM b WHERE bk = k) AS s FROM a",
        "SELECT id, k, (SELECT max(w) * 2 FROM b WHERE bk = k AND w < 8) AS m FROM a",
        // count over no rows is 0, not NULL (the count bug)
        "SELECT id, k, (SELECT count(*) FROM b WHERE bk = k) AS n FROM a",
        "SELECT id FROM a WHERE (SELECT count(w) FROM b WHERE bk = k) = 0",
        // uncorrelated
        "SELECT id, v FROM a WHERE v > (SELECT avg(w) FROM b)",
        "SELECT id, v, (SELECT max(cw) FROM c) AS top FROM a",
        "SELECT id FROM a WHERE v > (SELECT max(ek) FROM e) OR id < 3",
        "SELECT k, sum(v) AS s FROM a GROUP BY k HAVING sum(v) > (SELECT sum(w) FROM b) / 10",
    })
    void scalarSubqueries(String sql) throws Exception {
        assertSameAsDuckDb(sql);
    }

    @Test
    void aScalarSubqueryReturningSeveralRowsFailsAtRunTime() {
        assertThatThrownBy(() -> both.session().sql("SELECT id FROM a WHERE v = (SELECT w FROM b)").collect())
                .hasMessageContaining("scalar subquery returned more than one row");
        assertThatThrownBy(() -> both.session().sql("SELECT id, (SELECT w FROM b WHERE bk = k) AS w FROM a").collect())
                .hasMessageContaining("scalar subquery returned more than one row");
    }

    @Test
    void unsupportedSubqueriesFailWithAClearError() {
        assertThatThrownBy(() -> both.session().sql(
                "SELECT id FROM a LEFT JOIN b ON EXISTS (SELECT 1 FROM c WHERE cw = v + w)").collect())
                .hasMessageContaining("unsupported subquery").hasMessageContaining("reading both sides of the join");
    }
}
