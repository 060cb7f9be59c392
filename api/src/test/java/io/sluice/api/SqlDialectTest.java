package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.testfixtures.DuckDbOracle;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The everyday SQL dialect end to end on an embedded cluster, against DuckDB on the same Parquet
 * files: words Calcite reserves used as names, SELECT without FROM, VALUES, subqueries in FROM without
 * an alias, column alias lists, WITH, date ± INTERVAL (month ends included), date_add/date_sub and
 * DISTINCT aggregates, over data with NULLs and duplicates and over an empty table.
 */
class SqlDialectTest {
    @TempDir
    static Path data;

    private static Session session;
    private static DuckDbOracle duck;

    @BeforeAll
    static void start() throws Exception {
        duck = new DuckDbOracle();
        String[][] tables = {
            // k: 0..4 with NULLs and many duplicates; v: NULLs; d: month ends, a leap day, NULLs
            {"a", "SELECT i AS id, CASE WHEN i % 7 = 3 THEN NULL ELSE i % 5 END AS k, "
                    + "CASE WHEN i % 6 = 5 THEN NULL ELSE i * 3 % 11 END AS v, "
                    + "CASE WHEN i % 8 = 7 THEN NULL ELSE [DATE '2024-01-31', DATE '2024-02-29', DATE '2023-03-31', "
                    + "DATE '2024-12-31', DATE '2024-05-15'][i % 5 + 1] END AS d, "
                    + "CAST(i % 4 AS VARCHAR) AS value FROM range(0, 40) r(i)"},
            {"e", "SELECT i AS id, i AS k, i AS v FROM range(0, 0) r(i)"},
        };
        StringBuilder ddl = new StringBuilder();
        for (String[] t : tables) {
            Path file = data.resolve(t[0] + ".parquet");
            duck.execute("COPY (" + t[1] + ") TO '" + file + "' (FORMAT PARQUET)");
            duck.execute("CREATE VIEW " + t[0] + " AS SELECT * FROM read_parquet('" + file + "')");
            ddl.append("CREATE EXTERNAL TABLE ").append(t[0]).append(" STORED AS PARQUET LOCATION '").append(file)
                    .append("';");
        }
        session = Session.local(ClusterTesting.duckDbDialect(LocalCluster.Options.of(2).withShufflePartitions(3)));
        session.sql(ddl.toString());
    }

    @AfterAll
    static void stop() throws Exception {
        ClusterTesting.closeAll(session, duck);
    }

    @AfterEach
    void noLeakedBuffers() throws InterruptedException {
        ClusterTesting.awaitNoLeakedBuffers(session);
    }

    private static void assertSameAsDuckDb(String sql) throws Exception {
        List<List<Object>> expected = duck.query(sql);
        List<List<Object>> actual = DuckDbOracle.normalize(session.sql(sql).collect());
        assertThat(DuckDbOracle.sorted(actual)).as(sql).isEqualTo(DuckDbOracle.sorted(expected));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT value, count(*) AS one FROM a GROUP BY value",
        "SELECT a.value AS year, k AS position, v AS key, d AS date FROM a",
        "SELECT 1 AS one, 'x' AS value, 1 + 2 AS three",
        "SELECT * FROM (VALUES (1, 'a'), (2, NULL), (2, NULL)) AS t (n, s)",
        "SELECT n, count(*) FROM (VALUES (1), (1), (NULL)) AS t (n) GROUP BY n",
        "SELECT k FROM (SELECT k FROM a WHERE v > 3) WHERE k IS NOT NULL",
        "SELECT x, y FROM (SELECT k, count(*) FROM a GROUP BY k) AS c (x, y)",
        "SELECT c_count, count(*) AS custdist FROM (SELECT k, count(v) FROM a GROUP BY k) AS c (k, c_count) "
                + "GROUP BY c_count",
        "SELECT q.i, q.kk FROM a AS q (i, kk, vv, dd, ss) WHERE vv IS NULL",
        "SELECT * FROM (SELECT k FROM e) AS x (z)",
    })
    void namesAndRelations(String sql) throws Exception {
        assertSameAsDuckDb(sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "WITH r (key, n) AS (SELECT k, count(*) FROM a GROUP BY k) "
                + "SELECT x.key, x.n FROM r AS x, r AS y WHERE x.key = y.key AND x.n = (SELECT max(n) FROM r)",
        "WITH r AS (SELECT k, v FROM a WHERE v IS NOT NULL), s AS (SELECT k, sum(v) AS total FROM r GROUP BY k) "
                + "SELECT s.k, total FROM s JOIN r ON s.k = r.k WHERE r.v > 5 ORDER BY 1, 2",
        "WITH z AS (SELECT * FROM e) SELECT count(*) FROM z, z AS w",
        "SELECT k FROM a WHERE k IN (WITH m AS (SELECT max(k) AS top FROM a) SELECT top FROM m)",
        // an aggregating WITH query read by several consumers with different filters (computed once)
        "WITH g AS (SELECT k, value, sum(v) AS s, count(*) AS c FROM a GROUP BY k, value) "
                + "SELECT 'x', sum(s), count(*) FROM g WHERE k = 1 UNION ALL SELECT 'y', sum(s), count(*) FROM g WHERE c > 2",
        "WITH g AS (SELECT k, value, sum(v) AS s, count(*) AS c FROM a GROUP BY k, value) "
                + "SELECT 'x', sum(s), count(*) FROM g WHERE k = 1 "
                + "UNION ALL SELECT 'y', sum(s), count(*) FROM g WHERE value < '2' AND k < 4 "
                + "UNION ALL SELECT 'z', sum(s), count(*) FROM g WHERE c > 2",
        "WITH g AS (SELECT k, sum(v) AS s FROM a GROUP BY k) "
                + "SELECT x.k, x.s, y.s FROM g x JOIN g y ON x.k = y.k + 1 WHERE x.s > 5",
    })
    void with(String sql) throws Exception {
        assertSameAsDuckDb(sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT id, CAST(d + INTERVAL '1' MONTH AS DATE), CAST(d - INTERVAL '1' YEAR AS DATE), "
                + "CAST(d + INTERVAL '90' DAY AS DATE), CAST(d - INTERVAL '13' MONTH AS DATE) FROM a",
        "SELECT id, CAST(INTERVAL '2' WEEK + d AS DATE) FROM a",
        "SELECT id FROM a WHERE d >= DATE '2024-01-31' + INTERVAL '1' MONTH AND d < DATE '2025-01-01' - INTERVAL '0' DAY",
        "SELECT count(*) FROM a WHERE d <= DATE '1998-12-01' - INTERVAL '90' DAY",
    })
    void dateIntervals(String sql) throws Exception {
        assertSameAsDuckDb(sql);
    }

    /** Standard SQL's year-month interval; DuckDB does not parse it, so it gets the month count. */
    @Test
    void yearToMonthInterval() throws Exception {
        List<List<Object>> expected = duck.query("SELECT id, CAST(d + INTERVAL 13 MONTH AS DATE) FROM a");
        List<List<Object>> actual = DuckDbOracle.normalize(
                session.sql("SELECT id, d + INTERVAL '1-1' YEAR TO MONTH FROM a").collect());
        assertThat(DuckDbOracle.sorted(actual)).isEqualTo(DuckDbOracle.sorted(expected));
    }

    /** Spark's date_add(date, days) and date_sub: DuckDB spells them with + and -. */
    @Test
    void dateAddAndSub() throws Exception {
        List<List<Object>> expected = duck.query("SELECT id, d + 3, d - 40 FROM a");
        List<List<Object>> actual = DuckDbOracle.normalize(session.sql("SELECT id, date_add(d, 3), date_sub(d, 40) FROM a").collect());
        assertThat(DuckDbOracle.sorted(actual)).isEqualTo(DuckDbOracle.sorted(expected));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT count(DISTINCT k) FROM a",
        "SELECT count(DISTINCT k) FROM e",
        "SELECT v, count(DISTINCT k), sum(DISTINCT k), min(DISTINCT k), max(DISTINCT k), avg(DISTINCT k) FROM a GROUP BY v",
        "SELECT v, count(DISTINCT k) AS dk, count(*), count(k), sum(k), min(id), max(id), avg(k) FROM a GROUP BY v",
        "SELECT count(DISTINCT k), count(*), sum(v), avg(v) FROM a",
        "SELECT count(DISTINCT k), count(*), count(v), sum(v), avg(v) FROM e",
        "SELECT value, count(DISTINCT k) FROM a GROUP BY value HAVING count(DISTINCT k) > 2 ORDER BY 2 DESC, 1",
        "SELECT count(DISTINCT v % 3), sum(v) FROM a WHERE k IS NOT NULL",
        "SELECT count(DISTINCT k), count(DISTINCT v), sum(DISTINCT v), count(*), avg(v), max(d) FROM a",
        "SELECT value, count(DISTINCT k), avg(DISTINCT v), min(DISTINCT d), count(v), sum(id) FROM a GROUP BY value",
        "SELECT k, count(DISTINCT v), count(DISTINCT d) FROM a GROUP BY k HAVING count(DISTINCT d) > 1",
        "SELECT count(DISTINCT k), count(DISTINCT v), count(*), sum(v) FROM e",
    })
    void distinctAggregates(String sql) throws Exception {
        assertSameAsDuckDb(sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT id, upper(value), lower('AbC' || value), length(value || 'xyz'), concat(value, NULL, k, 'z'), value || NULL FROM a",
        "SELECT id, trim('  x ' || value || ' '), ltrim('  x'), rtrim('x  '), position('2' IN value), strpos('abcabc', 'c') FROM a",
        "SELECT id, replace(value, '1', 'one'), starts_with(value, '1'), starts_with(value, '') FROM a",
        "SELECT id, coalesce(v, k, -1), coalesce(k, 7), nullif(k, 2), nullif(v, k) FROM a",
        "SELECT id, abs(v - 5), abs(CAST(v AS DECIMAL(10,2)) - 5.25), abs(v * -1.5) FROM a",
        "SELECT id, round(v / 4.0), round(CAST(v AS DECIMAL(10,3)) / 7, 1), round(v * 1.25, 1), round(CAST(v * 37 AS BIGINT), -1) FROM a",
        "SELECT id, floor(v / 4.0), ceil(v / 4.0), ceiling(CAST(v AS DECIMAL(10,2)) / 3), floor(-CAST(v AS DECIMAL(10,2)) / 3), floor(v) FROM a",
        "SELECT id, year(d), month(d), day(d), CAST(date_trunc('month', d) AS DATE), CAST(date_trunc('year', d) AS DATE), "
                + "CAST(date_trunc('quarter', d) AS DATE), CAST(date_trunc('week', d) AS DATE) FROM a",
        "SELECT upper(value), count(*) FROM a GROUP BY upper(value)",
    })
    void scalarFunctions(String sql) throws Exception {
        assertSameAsDuckDb(sql);
    }

    @Test
    void viewsAreCreatedReadAndDropped() throws Exception {
        String create = "CREATE VIEW per_k (key, n) AS SELECT k, count(*) FROM a GROUP BY k";
        duck.execute(create);
        session.sql(create);
        assertSameAsDuckDb("SELECT key, n FROM per_k WHERE n > 3");
        assertSameAsDuckDb("SELECT x.key, y.n FROM per_k AS x JOIN per_k AS y ON x.key = y.key + 1");
        assertThatThrownBy(() -> session.sql(create)).hasMessageContaining("view 'per_k' already exists");
        String replace = "CREATE OR REPLACE TEMP VIEW per_k AS SELECT k AS key FROM a WHERE k > 2";
        duck.execute(replace);
        session.sql(replace);
        assertSameAsDuckDb("SELECT * FROM per_k");
        // the temporary view shadowed the stored one (as in Spark and DuckDB): dropping it shows the stored one again
        session.sql("DROP VIEW per_k");
        duck.execute("DROP VIEW per_k");
        assertSameAsDuckDb("SELECT key, n FROM per_k WHERE n > 3");
        session.sql("DROP VIEW per_k");
        duck.execute("DROP VIEW per_k");
        assertThatThrownBy(() -> session.sql("SELECT * FROM per_k")).hasMessageContaining("unknown table 'per_k'");
        assertThatThrownBy(() -> session.sql("DROP VIEW per_k")).hasMessageContaining("unknown view 'per_k'");
        session.sql("DROP VIEW IF EXISTS per_k");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT k FROM a INTERSECT SELECT v FROM a",
        "SELECT k, v FROM a WHERE id < 20 INTERSECT SELECT k, v FROM a WHERE id >= 10",
        "SELECT k FROM a EXCEPT SELECT v FROM a WHERE v > 2",
        "SELECT k, v FROM a EXCEPT SELECT k, v FROM a WHERE id > 25",
        "SELECT k FROM a INTERSECT SELECT k FROM e",
        "SELECT k FROM a EXCEPT SELECT k FROM e",
        "SELECT k FROM a EXCEPT SELECT k FROM a",
        "SELECT k FROM a UNION ALL SELECT v FROM a INTERSECT SELECT k FROM a",
        "SELECT k FROM a EXCEPT SELECT v FROM a ORDER BY 1 NULLS FIRST LIMIT 3",
    })
    void intersectAndExcept(String sql) throws Exception {
        assertSameAsDuckDb(sql);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT k, value, sum(v), count(*) FROM a GROUP BY ROLLUP (k, value)",
        "SELECT k, value, count(v) FROM a GROUP BY CUBE (k, value)",
        "SELECT k, value, count(*) FROM a GROUP BY GROUPING SETS ((k, value), (k), ())",
        "SELECT k, value, count(DISTINCT v) FROM a GROUP BY ROLLUP (k, value)",
        "SELECT value, k, max(id) FROM a GROUP BY value, ROLLUP (k) HAVING max(id) > 10",
        "SELECT k, count(*) FROM e GROUP BY ROLLUP (k)",
        "SELECT k, v, count(*), sum(v), min(id), max(id) FROM e GROUP BY CUBE (k, v)",
        "SELECT k, value, v % 3 AS r, min(d), max(id), count(v), grouping(k), grouping(value, k) FROM a "
                + "GROUP BY ROLLUP (k, value, v % 3)",
        "SELECT k, value, count(*), sum(id), avg(v) FROM a GROUP BY GROUPING SETS ((k), (value), (k), (k, value))",
        "SELECT k, avg(v), avg(id) FROM e GROUP BY ROLLUP (k)",
        "SELECT k, d, count(*) FROM a WHERE id > 100 GROUP BY GROUPING SETS ((k), (d), ())",
        // id is unique: the finest grouping has as many groups as rows, so each set is aggregated apart
        "SELECT id, k, sum(v), count(*), avg(v), min(d), grouping(k) FROM a GROUP BY ROLLUP (id, k)",
        "SELECT id, value, count(v), max(d) FROM a GROUP BY CUBE (id, value) HAVING count(v) > 0",
    })
    void groupingSets(String sql) throws Exception {
        assertSameAsDuckDb(sql);
    }
}
