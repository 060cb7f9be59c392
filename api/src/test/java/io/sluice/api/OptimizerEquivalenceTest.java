package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testfixtures.DuckDbOracle;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The logical optimizer never changes a result: every query runs on a real embedded cluster twice,
 * with the standard rules and with {@code sluice.optimizer.enabled = false} (the plan as written),
 * and both results must equal each other and DuckDB's. The queries are chosen to give each rule
 * work (constant predicates to fold and eliminate, filters to merge and push through projections,
 * aggregates, unions and outer joins, comma joins whose keys sit in WHERE, limits to push into
 * unions, columns to prune), over data with NULLs in filtered, grouped and join-key columns; and
 * generated join graphs run with join reordering on and off.
 */
class OptimizerEquivalenceTest {
    private static final String UNOPTIMIZED = "SET sluice.optimizer.enabled = false; ";

    @TempDir
    static Path data;

    private static Session session;
    private static DuckDbOracle duck;

    @BeforeAll
    static void start() throws Exception {
        duck = new DuckDbOracle();
        duck.execute("COPY (SELECT i AS id, CASE WHEN i % 7 = 0 THEN NULL ELSE 'k' || (i % 13) END AS k, "
                + "CASE WHEN i % 11 = 0 THEN NULL ELSE (i * 37) % 1000 END AS v, "
                + "CASE WHEN i % 17 = 0 THEN NULL ELSE CAST((i % 97) * 1.5 AS DOUBLE) END AS x, "
                + "CASE WHEN i % 19 = 0 THEN NULL ELSE i % 3 = 0 END AS flag FROM range(0, 3000) r(i)) TO '"
                + data.resolve("a.parquet") + "' (FORMAT PARQUET, ROW_GROUP_SIZE 512)");
        duck.execute("COPY (SELECT CASE WHEN i = 5 THEN NULL ELSE 'k' || i END AS bk, 'label' || (i % 4) AS label, "
                + "CASE WHEN i = 9 THEN NULL ELSE i * 10 END AS w FROM range(0, 16) r(i)) TO '"
                + data.resolve("b.csv") + "' (FORMAT CSV, HEADER)");
        duck.execute("CREATE VIEW a AS SELECT * FROM read_parquet('" + data.resolve("a.parquet") + "')");
        duck.execute("CREATE VIEW b AS SELECT * FROM read_csv_auto('" + data.resolve("b.csv") + "')");
        session = Session.local(ClusterTesting.duckDbDialect(LocalCluster.Options.of(2).withShufflePartitions(3)));
        session.sql("CREATE EXTERNAL TABLE a STORED AS PARQUET LOCATION '" + data.resolve("a.parquet") + "';"
                + "CREATE EXTERNAL TABLE b STORED AS CSV LOCATION '" + data.resolve("b.csv") + "'");
        JoinGraphs.createTables(data, duck, session);
    }

    @AfterAll
    static void stop() throws Exception {
        ClusterTesting.closeAll(session, duck);
    }

    @AfterEach
    void noLeakedBuffers() throws InterruptedException {
        ClusterTesting.awaitNoLeakedBuffers(session);
    }

    /** Queries whose row order is not specified; compared as sorted rows. */
    static Stream<String> unordered() {
        return Stream.of(
                // filters and projections, constant-true and constant-false predicates, NULLs
                "SELECT id, k, v FROM a WHERE v > 500 AND true",
                "SELECT id, v + 1 AS v1, x * 2 AS x2 FROM a WHERE 1 = 1 AND (v < 100 OR v IS NULL)",
                "SELECT id, k FROM a WHERE false",
                "SELECT id, k FROM a WHERE 1 = 0 OR (flag AND false)",
                "SELECT id FROM a WHERE true OR v > 1",
                "SELECT id, v FROM a WHERE NOT NOT (v > 900)",
                "SELECT id, v FROM a WHERE NOT (v > 500) AND k IS NOT NULL",
                "SELECT id, flag FROM a WHERE flag",
                "SELECT id, CASE WHEN v IS NULL THEN -1 ELSE v END AS vv FROM a WHERE v IN (37, 74, 111) OR k IS NULL",
                "SELECT p.id2, p.vv FROM (SELECT id * 2 AS id2, v + v AS vv, k FROM "
                        + "(SELECT id, v, k, x FROM a WHERE id > 100) q WHERE q.v > 10) p WHERE p.k IS NOT NULL AND p.vv < 300",
                // aggregates with HAVING, over nothing, and filtered from above
                "SELECT k, count(*) AS c, sum(v) AS s FROM a GROUP BY k HAVING count(*) > 10 AND sum(v) IS NOT NULL",
                "SELECT k, max(x) AS mx, min(x) AS mn FROM a WHERE flag GROUP BY k HAVING max(x) > 50 OR k IS NULL",
                "SELECT flag, count(v) AS c FROM a GROUP BY flag HAVING true",
                "SELECT k, count(*) AS c FROM a GROUP BY k HAVING 1 = 0",
                "SELECT count(*) AS c, sum(v) AS s FROM a WHERE 1 = 0",
                "SELECT count(*) AS c, max(v) AS m FROM a WHERE false HAVING count(*) = 0",
                "SELECT s.k, s.t FROM (SELECT k, sum(v) AS t FROM a GROUP BY k) s WHERE s.k LIKE 'k1%' AND s.t > 0",
                // joins: inner, outer (filters on the null-supplying side must stay above), comma joins
                "SELECT a.id, b.label FROM a JOIN b ON a.k = b.bk WHERE b.w > 30",
                "SELECT a.id, b.label, b.w FROM a LEFT JOIN b ON a.k = b.bk AND b.w > 50 WHERE a.v < 200",
                "SELECT a.id, a.k FROM a LEFT JOIN b ON a.k = b.bk WHERE b.label IS NULL",
                "SELECT b.bk, count(a.id) AS c FROM a RIGHT JOIN b ON a.k = b.bk AND a.v > 100 GROUP BY b.bk",
                "SELECT s.k, b.bk, b.w FROM (SELECT k FROM a WHERE v < 30 GROUP BY k) s FULL JOIN b ON s.k = b.bk",
                "SELECT s.k, b.bk FROM (SELECT k FROM a WHERE v < 30 GROUP BY k) s FULL JOIN b ON s.k = b.bk WHERE b.w > 20",
                "SELECT a.id FROM a JOIN b ON a.k = b.bk AND 1 = 0",
                "SELECT a.id, b.bk FROM a JOIN b ON a.k = b.bk WHERE a.id < 0",
                // unions, with filters and aggregates above
                "SELECT k, v FROM a WHERE v < 50 UNION ALL SELECT bk, w FROM b WHERE w > 100",
                "SELECT k FROM a UNION SELECT bk FROM b",
                "SELECT u.k, count(*) AS c FROM (SELECT k, v FROM a UNION ALL SELECT bk, w FROM b) u WHERE u.v > 100 GROUP BY u.k",
                "SELECT u.k FROM (SELECT k, v FROM a WHERE false UNION ALL SELECT bk, w FROM b) u WHERE u.v IS NOT NULL",
                // limits whose row count is determined though their rows are not
                "SELECT count(*) AS c FROM (SELECT id FROM a LIMIT 25) s",
                "SELECT count(*) AS c FROM (SELECT k, v FROM a UNION ALL SELECT bk, w FROM b LIMIT 30) s",
                "SELECT count(*) AS c FROM (SELECT id, v FROM a WHERE v IS NULL LIMIT 1000) s",
                "SELECT id FROM a LIMIT 0");
    }

    /**
     * Comma joins, whose keys are in WHERE: only ExtractEquijoinPredicate makes them keyed joins, and
     * the engine has no join without key pairs (no nested-loop join), so these run optimized only.
     */
    static Stream<String> keyedOnlyByTheOptimizer() {
        return Stream.of(
                "SELECT a.id, b.w FROM a, b WHERE a.k = b.bk AND a.v + b.w > 500 AND b.w < 100",
                "SELECT b.label, count(*) AS c, sum(a.v) AS s FROM a, b WHERE b.bk = a.k AND true GROUP BY b.label");
    }

    /** Queries with a total order; compared row by row. */
    static Stream<String> ordered() {
        return Stream.of(
                "SELECT id, v FROM a ORDER BY v DESC, id LIMIT 10",
                "SELECT id, k FROM a WHERE k IS NOT NULL ORDER BY id LIMIT 5 OFFSET 7",
                "SELECT k, v FROM (SELECT k, v, id FROM a UNION ALL SELECT bk, w, 100000 FROM b) u "
                        + "ORDER BY v DESC NULLS LAST, k NULLS FIRST LIMIT 12",
                "SELECT a.id, b.label FROM a LEFT JOIN b ON a.k = b.bk WHERE a.id BETWEEN 10 AND 40 ORDER BY a.id",
                "SELECT k, sum(v) AS s FROM a GROUP BY k HAVING sum(v) > 1000 ORDER BY s DESC, k LIMIT 4");
    }

    @ParameterizedTest
    @MethodSource("unordered")
    void unorderedQueriesGiveTheSameRowsOptimizedOrNot(String sql) throws Exception {
        check(sql, false);
    }

    @ParameterizedTest
    @MethodSource("ordered")
    void orderedQueriesGiveTheSameRowsInOrderOptimizedOrNot(String sql) throws Exception {
        check(sql, true);
    }

    /** Written without join keys: unoptimized they run as a keyless join filtered afterwards. */
    @ParameterizedTest
    @MethodSource("keyedOnlyByTheOptimizer")
    void commaJoinsGiveTheSameRowsOptimizedOrNot(String sql) throws Exception {
        check(sql, false);
    }

    /**
     * Random connected join graphs ({@link JoinGraphs}) give DuckDB's answer with join reordering on
     * and off, and the reordered plan has no cross product.
     */
    @ParameterizedTest
    @MethodSource("io.sluice.api.JoinGraphs#queries")
    void generatedJoinGraphsGiveTheSameRowsReorderedOrNot(String sql) throws Exception {
        List<List<Object>> expected = duck.query(sql);
        List<List<Object>> reordered = DuckDbOracle.normalize(session.sql(sql).collect());
        List<List<Object>> written = DuckDbOracle.normalize(session.sql("SET sluice.optimizer.join-reorder = false; " + sql).collect());
        System.out.println(expected + " <- " + sql);
        assertThat(reordered).as("reordered: " + sql).isEqualTo(expected);
        assertThat(written).as("as written: " + sql).isEqualTo(expected);
        assertThat(session.sql("EXPLAIN " + sql).collect().rows().toString()).as("a connected graph's plan: " + sql)
                .doesNotContain("on=[(0, 0)]");
    }

    private static void check(String sql, boolean ordered) throws Exception {
        List<List<Object>> expected = duck.query(sql);
        List<List<Object>> optimized = DuckDbOracle.normalize(session.sql(sql).collect());
        List<List<Object>> unoptimized = DuckDbOracle.normalize(session.sql(UNOPTIMIZED + sql).collect());
        if (!ordered) {
            expected = DuckDbOracle.sorted(expected);
            optimized = DuckDbOracle.sorted(optimized);
            unoptimized = DuckDbOracle.sorted(unoptimized);
        }
        assertThat(optimized).as("optimized vs unoptimized: " + sql).isEqualTo(unoptimized);
        assertThat(optimized).as("optimized vs DuckDB: " + sql).isEqualTo(expected);
    }

    @Test
    void disablingTheOptimizerLeavesThePlanAsWritten() {
        String sql = "EXPLAIN SELECT id FROM a WHERE true AND v > 1 + 1";
        String off = session.sql(UNOPTIMIZED + sql).collect().rows().toString();
        String on = session.sql(sql).collect().rows().toString();
        assertThat(section(off, "== Optimized Logical Plan ==")).isEqualTo(section(off, "== Logical Plan =="));
        assertThat(section(on, "== Optimized Logical Plan ==")).isNotEqualTo(section(on, "== Logical Plan =="))
                .contains("v > 2");
    }

    /** The text of an EXPLAIN section, up to the next header. */
    private static String section(String explain, String header) {
        int start = explain.indexOf(header) + header.length();
        int end = explain.indexOf("==", start);
        return explain.substring(start, end < 0 ? explain.length() : end);
    }
}
