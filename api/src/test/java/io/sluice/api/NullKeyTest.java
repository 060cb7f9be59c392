package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testfixtures.DuckDbOracle;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * NULL grouping and join keys end to end on an embedded cluster (two workers, three shuffle
 * partitions, several input files so every partial aggregate sees NULLs), against DuckDB on the
 * same Parquet files, with int, string, multi-column and computed keys: all NULLs of a key form one
 * group and NULL join keys never match. (A final aggregate re-groups the partial's keys, whose
 * NULL slots hold zeros, so a partial's spare NULL groups would not show here:
 * {@code HashAggregateNullKeyTest} and {@code GroupTableTest} pin the partial phase itself.)
 */
class NullKeyTest extends DuckDbComparisonTest {
    @BeforeAll
    static void start() throws Exception {
        both = DuckDbComparison.start(data,
                // t: int key k, string key s, a second int key j, all with NULLs
                new DuckDbComparison.Table("t", "SELECT i AS id, CASE WHEN i % 5 = 2 THEN NULL ELSE i % 7 END AS k, "
                        + "CASE WHEN i % 4 = 1 THEN NULL ELSE 'g' || (i % 3) || 'é' END AS s, "
                        + "CASE WHEN i % 6 = 0 THEN NULL ELSE i % 2 END AS j, i * 10 AS v FROM range(0, 300) r(i)", 3),
                // u: keys overlapping t's, with NULLs
                new DuckDbComparison.Table("u", "SELECT CASE WHEN i % 3 = 0 THEN NULL ELSE i % 9 END AS uk, "
                        + "CASE WHEN i % 4 = 0 THEN NULL ELSE 'g' || (i % 5) || 'é' END AS us, "
                        + "CASE WHEN i % 5 = 0 THEN NULL ELSE i % 2 END AS uj, i AS w FROM range(0, 40) r(i)", 3));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT k, count(*) AS n, sum(v) AS total FROM t GROUP BY k",
        "SELECT s, count(*) AS n, min(id) AS lo FROM t GROUP BY s",
        "SELECT k, s, j, count(*) AS n FROM t GROUP BY k, s, j",
        // computed keys: the value under a NULL slot differs per row
        "SELECT k + id AS kk, count(*) AS n FROM t GROUP BY k + id HAVING k + id IS NULL OR count(*) > 0",
        "SELECT k * id AS kk, j + id AS jj, count(*) AS n FROM t GROUP BY k * id, j + id",
        "SELECT count(*) AS null_groups FROM (SELECT k + id AS kk FROM t GROUP BY k + id) g WHERE kk IS NULL",
        "SELECT DISTINCT k + j AS kj FROM t",
        // the aggregate above a join on its key needs no second shuffle: partial and final in one stage
        "SELECT t.k, count(*) AS n FROM t JOIN u ON t.k = u.uk GROUP BY t.k",
    })
    void nullKeysFormOneGroup(String sql) throws Exception {
        both.assertSameRows(sql);
    }

    static final String[] JOINS = {
        "SELECT id, w FROM t JOIN u ON t.k = u.uk",
        "SELECT id, w FROM t JOIN u ON t.s = u.us",
        "SELECT id, w FROM t JOIN u ON t.k = u.uk AND t.j = u.uj",
        "SELECT id, w FROM t LEFT JOIN u ON t.k = u.uk AND t.s = u.us",
        "SELECT id, w FROM t RIGHT JOIN u ON t.s = u.us AND t.j = u.uj",
        "SELECT id, w FROM t FULL JOIN u ON t.k + t.id = u.uk + u.w",
        "SELECT id FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.uk = t.k AND u.uj = t.j)",
        "SELECT id FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.us = t.s)",
        // anti joins written as outer joins (planned as anti joins): NULL left keys are kept
        "SELECT id, k, uk, w FROM t LEFT JOIN u ON t.k = u.uk WHERE u.uk IS NULL",
        "SELECT id, us FROM t LEFT JOIN u ON t.s = u.us AND t.j = u.uj WHERE u.uj IS NULL AND t.v > 100",
        "SELECT id FROM t LEFT JOIN u ON t.k = u.uk AND u.w > t.id WHERE u.uk IS NULL",
        // not a key: a matched row may hold a NULL there, so this stays an outer join
        "SELECT id, w FROM t LEFT JOIN u ON t.k = u.uk WHERE u.uj IS NULL",
    };

    /** The same joins as sort-merge joins: nothing is hashed or broadcast. */
    @ParameterizedTest
    @FieldSource("JOINS")
    void nullJoinKeysNeverMatchInSortMergeJoins(String sql) throws Exception {
        String sortMerge = "SET sluice.join.broadcast-threshold = -1; SET sluice.join.sort-merge-threshold = 0; ";
        List<List<Object>> expected = both.duck().query(sql);
        List<List<Object>> actual = DuckDbOracle.normalize(both.session().sql(sortMerge + sql).collect());
        assertThat(DuckDbOracle.sorted(actual)).as(sql).isEqualTo(DuckDbOracle.sorted(expected));
        assertThat(both.session().sql(sortMerge + "EXPLAIN " + sql).collect().rows()).as(sql)
                .anySatisfy(line -> assertThat((String) line.get(0)).contains("SortMergeJoinExec"));
    }

    @ParameterizedTest
    @FieldSource("JOINS")
    void nullJoinKeysNeverMatch(String sql) throws Exception {
        both.assertSameRows(sql);
    }

    /** IN never matches a NULL; NOT IN keeps its null-aware meaning (a NULL in the list rejects every row). */
    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT id FROM t WHERE s IN (SELECT us FROM u)",
        "SELECT id FROM t WHERE k NOT IN (SELECT uk FROM u)",
        "SELECT id FROM t WHERE k NOT IN (SELECT uk FROM u WHERE uk IS NOT NULL)",
    })
    void inAndNotInKeepTheirNullSemantics(String sql) throws Exception {
        both.assertSameRows(sql);
    }
}
