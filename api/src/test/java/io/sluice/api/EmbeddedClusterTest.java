package io.sluice.api;

import static io.sluice.api.Functions.avg;
import static io.sluice.api.Functions.col;
import static io.sluice.api.Functions.countStar;
import static io.sluice.api.Functions.lit;
import static io.sluice.api.Functions.sum;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.kernels.QueryResult;
import io.sluice.shuffle.stage.Stage;
import io.sluice.shuffle.stage.StageCutter;
import io.sluice.testfixtures.DuckDbOracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * End to end on a real embedded cluster (a coordinator and two workers, Pekko remoting and Netty
 * shuffle on 127.0.0.1): SQL and DataFrame queries over CSV and Parquet files, checked against
 * DuckDB on the same files.
 */
class EmbeddedClusterTest {
    @TempDir
    static Path data;

    private static Session session;
    private static DuckDbOracle duck;

    @BeforeAll
    static void start() throws Exception {
        duck = new DuckDbOracle();
        Files.createDirectories(data.resolve("csv"));
        String rows = "SELECT CASE WHEN i % 7 = 0 THEN NULL ELSE 'k' || (i % 13) END AS k, "
                + "CASE WHEN i % 11 = 0 THEN NULL ELSE (i * 37) % 1000 END AS v, "
                + "CAST((i % 500) / 4.0 AS DECIMAL(12,2)) AS d, CAST((i % 97) * 1.5 AS DOUBLE) AS x, "
                + "DATE '2024-01-01' + CAST(i % 365 AS INTEGER) AS dt, i % 3 = 0 AS flag FROM range(FROM_ROW, TO_ROW) r(i)";
        for (int f = 0; f < 3; f++) {
            duck.execute("COPY (" + rows.replace("FROM_ROW", String.valueOf(f * 4000)).replace("TO_ROW", String.valueOf((f + 1) * 4000)) + ") TO '"
                    + data.resolve("csv/part-" + f + ".csv") + "' (FORMAT CSV, HEADER)");
        }
        duck.execute("COPY (" + rows.replace("FROM_ROW", "0").replace("TO_ROW", "12000") + ") TO '" + data.resolve("t.parquet")
                + "' (FORMAT PARQUET, ROW_GROUP_SIZE 2048)");
        duck.execute("COPY (SELECT CASE WHEN i = 5 THEN NULL ELSE 'k' || i END AS dk, 'label' || (i % 4) AS label, "
                + "i * 10 AS weight FROM range(0, 16) r(i)) TO '" + data.resolve("dim.csv") + "' (FORMAT CSV, HEADER)");
        duck.execute("CREATE VIEW dim AS SELECT * FROM read_csv_auto('" + data.resolve("dim.csv") + "')");
        duck.execute("CREATE VIEW csv_t AS SELECT * FROM read_csv_auto('" + data.resolve("csv") + "/*.csv')");
        duck.execute("CREATE VIEW pq_t AS SELECT * FROM read_parquet('" + data.resolve("t.parquet") + "')");
        session = Session.local(ClusterTesting.duckDbDialect(LocalCluster.Options.of(2).withShufflePartitions(4)));
        session.sql("CREATE EXTERNAL TABLE csv_t STORED AS CSV LOCATION '" + data.resolve("csv") + "';"
                + "CREATE EXTERNAL TABLE pq_t STORED AS PARQUET LOCATION '" + data.resolve("t.parquet") + "';"
                + "CREATE EXTERNAL TABLE dim STORED AS CSV LOCATION '" + data.resolve("dim.csv") + "'");
    }

    @AfterAll
    static void stop() throws Exception {
        ClusterTesting.closeAll(session, duck);
    }

    @AfterEach
    void noLeakedBuffers() throws InterruptedException {
        ClusterTesting.awaitNoLeakedBuffers(session);
    }

    private void assertSameAsDuckDb(String sql, boolean ordered) throws Exception {
        List<List<Object>> expected = duck.query(sql);
        List<List<Object>> actual = DuckDbOracle.normalize(session.sql(sql).collect());
        if (ordered) {
            assertThat(actual).as(sql).isEqualTo(expected);
        } else {
            assertThat(DuckDbOracle.sorted(actual)).as(sql).isEqualTo(DuckDbOracle.sorted(expected));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"csv_t", "pq_t"})
    void filterGroupByOrderByLimit(String table) throws Exception {
        assertSameAsDuckDb("SELECT k, sum(v) AS s, count(*) AS c FROM " + table
                + " WHERE v > 100 GROUP BY k ORDER BY k LIMIT 5", true);
        assertSameAsDuckDb("SELECT k, count(v) AS n, min(x) AS lo, max(dt) AS hi, avg(v) AS a FROM " + table
                + " GROUP BY k ORDER BY k", true);
        assertSameAsDuckDb("SELECT k, sum(v) AS s FROM " + table + " GROUP BY k HAVING sum(v) > 100000 ORDER BY s DESC", true);
        assertSameAsDuckDb("SELECT flag, count(*) AS c, sum(x) AS sx FROM " + table + " GROUP BY flag", false);
        assertSameAsDuckDb("SELECT count(*) AS c, sum(v) AS s, min(k) AS mk, max(x) AS mx FROM " + table, true);
        assertSameAsDuckDb("SELECT k, v, x FROM " + table + " WHERE k IS NULL AND v IS NOT NULL ORDER BY v DESC, x LIMIT 7", true);
    }

    @Test
    void unionsSubqueriesAndConstantFilters() throws Exception {
        assertSameAsDuckDb("SELECT k, v FROM csv_t WHERE v < 20 UNION ALL SELECT k, v FROM pq_t WHERE v > 990", false);
        assertSameAsDuckDb("SELECT k FROM csv_t WHERE v < 50 UNION SELECT k FROM pq_t WHERE v > 900", false);
        assertSameAsDuckDb("SELECT s.k, s.total FROM (SELECT k, sum(v) AS total FROM pq_t GROUP BY k) AS s "
                + "WHERE s.total > 400000 ORDER BY s.k", true);
        assertSameAsDuckDb("SELECT count(*) AS c FROM pq_t WHERE 1 = 0", true);
        assertSameAsDuckDb("SELECT k, v FROM pq_t WHERE 1 = 0", true);
        assertSameAsDuckDb("SELECT k, v FROM pq_t ORDER BY v, k, x LIMIT 0", true);
        assertSameAsDuckDb("SELECT k, v FROM pq_t WHERE v IS NOT NULL ORDER BY v DESC, k LIMIT 5 OFFSET 3", true);
    }

    private static final String[] JOIN_STRATEGIES = {
        "", // default: the small side is broadcast
        "SET sluice.join.broadcast-threshold = -1; ", // partitioned hash join
        "SET sluice.join.broadcast-threshold = -1; SET sluice.join.sort-merge-threshold = 0; ", // sort-merge join
    };

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2})
    void joinsUnderEachStrategy(int strategy) throws Exception {
        String set = JOIN_STRATEGIES[strategy];
        String[] queries = {
            "SELECT d.label, sum(t.v) AS s, count(*) AS c FROM pq_t t JOIN dim d ON t.k = d.dk GROUP BY d.label ORDER BY d.label",
            "SELECT t.k, d.weight, count(*) AS c FROM csv_t t LEFT JOIN dim d ON t.k = d.dk GROUP BY t.k, d.weight ORDER BY t.k",
            "SELECT d.dk, count(t.v) AS c FROM pq_t t RIGHT JOIN dim d ON t.k = d.dk GROUP BY d.dk ORDER BY d.dk",
            "SELECT d.dk, t.k, count(*) AS c FROM (SELECT k FROM pq_t WHERE v < 30) t FULL JOIN dim d ON t.k = d.dk "
                    + "GROUP BY d.dk, t.k ORDER BY d.dk, t.k",
            "SELECT t.k, sum(t.v) AS s FROM pq_t t, dim d WHERE t.k = d.dk AND d.weight > 50 GROUP BY t.k ORDER BY t.k",
            "SELECT a.k, count(*) AS c FROM pq_t a JOIN csv_t b ON a.k = b.k AND a.v = b.v WHERE a.v < 100 GROUP BY a.k ORDER BY a.k",
        };
        for (String q : queries) {
            List<List<Object>> expected = duck.query(q);
            assertThat(DuckDbOracle.normalize(session.sql(set + q).collect())).as(set + q).isEqualTo(expected);
        }
        String explain = session.sql(set + "EXPLAIN " + queries[0]).collect().rows().toString();
        assertThat(explain).contains(switch (strategy) {
            case 0 -> "mode=collect_right";
            case 1 -> "mode=partitioned";
            default -> "SortMergeJoinExec";
        });
    }

    @Test
    void explainVerboseShowsEveryRewriteAndWhyTheLoopStopped() {
        String text = String.join("\n", session.sql("EXPLAIN VERBOSE SELECT k, sum(v) AS s FROM pq_t WHERE 1 = 1 AND v > 2 + 3 "
                + "GROUP BY k").collect().rows().stream().map(r -> (String) r.get(0)).toList());
        assertThat(text).contains("== Optimizer Passes ==", "pass 1, after SimplifyExpressions:", "(v > 5)")
                .containsPattern("fixed point at pass \\d");
        assertThat(session.sql("SET sluice.optimizer.max-passes = 1; EXPLAIN VERBOSE SELECT k FROM pq_t WHERE 1 = 1")
                .collect().rows().toString()).contains("stopped at the cap of 1 passes");
    }

    @Test
    void settingsAreCheckedByName() {
        assertThatThrownBy(() -> session.sql("SET sluice.nope = 1; SELECT 1 FROM dim"))
                .isInstanceOf(SluiceException.class).hasMessageContaining("sluice.nope");
        assertThatThrownBy(() -> session.sql("SET sluice.shuffle.partitions = many"))
                .isInstanceOf(SluiceException.class).hasMessageContaining("many");
        assertThatThrownBy(() -> session.sql("SET sluice.shuffle.partiton = 8; SELECT 1 FROM dim"))
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining("unknown setting 'sluice.shuffle.partiton'; did you mean 'sluice.shuffle.partitions'?");
        assertThatThrownBy(() -> session.sql("SET sluice.shuffle.partitions = 1000000; SELECT 1 FROM dim"))
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining("sluice.shuffle.partitions must be between 0 and 10000, not 1000000");
        assertThatThrownBy(() -> session.sql("SET sluice.optimizer.max-passes = 0; SELECT 1 FROM dim"))
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining("sluice.optimizer.max-passes must be between 1 and 1000, not 0");
        assertThatThrownBy(() -> session.sql("SET sluice.task.timeout = 1s; SELECT 1 FROM dim"))
                .isInstanceOf(SluiceException.class).hasMessageContaining("sluice.task.timeout is a node setting");
    }

    @Test
    void decimalsOnParquet() throws Exception {
        assertSameAsDuckDb("SELECT k, sum(d) AS sd, min(d) AS lo, max(d) AS hi FROM pq_t GROUP BY k ORDER BY k", true);
        assertSameAsDuckDb("SELECT d * 2 AS dd, d + 1 AS dp FROM pq_t WHERE d > 120 ORDER BY dd, dp LIMIT 10", true);
    }

    @ParameterizedTest
    @ValueSource(strings = {"csv_t", "pq_t"})
    void emptyResults(String table) throws Exception {
        assertSameAsDuckDb("SELECT k, v FROM " + table + " WHERE v > 1000000 ORDER BY v", true);
        assertSameAsDuckDb("SELECT k, sum(v) AS s FROM " + table + " WHERE v < 0 GROUP BY k", false);
        assertSameAsDuckDb("SELECT count(*) AS c, sum(v) AS s, avg(x) AS a FROM " + table + " WHERE v < 0", true);
    }

    @Test
    void groupByHasTwoStagesAndShufflesAcrossWorkers() throws Exception {
        var plan = io.sluice.sql.SqlFrontEnd.parse("SELECT k, sum(v) FROM pq_t GROUP BY k",
                session.localCluster().coordinator().queries().catalog());
        var physical = session.localCluster().coordinator().queries()
                .physicalPlan(((io.sluice.sql.Statement.Query) plan).plan());
        List<Stage> stages = StageCutter.cut(physical, "test");
        assertThat(stages).hasSize(2);
        assertThat(stages.get(1).parents()).containsExactly(0);

        Map<String, Long> before1 = Map.copyOf(server(0).blocksServedTo());
        Map<String, Long> before2 = Map.copyOf(server(1).blocksServedTo());
        assertSameAsDuckDb("SELECT k, sum(v) FROM pq_t GROUP BY k", false);
        long w1ToW2 = server(0).blocksServedTo().getOrDefault("worker-2", 0L) - before1.getOrDefault("worker-2", 0L);
        long w2ToW1 = server(1).blocksServedTo().getOrDefault("worker-1", 0L) - before2.getOrDefault("worker-1", 0L);
        assertThat(w1ToW2 + w2ToW1).as("blocks fetched from the other worker's shuffle server").isPositive();
    }

    private static io.sluice.shuffle.ShuffleServer server(int i) {
        return session.localCluster().workers().get(i).shuffleServer();
    }

    @Test
    void dataFrameApi() throws Exception {
        DataFrame df = session.read().parquet(data.resolve("t.parquet").toString());
        QueryResult result = df.filter(col("v").gt(lit(100)))
                .groupBy("k")
                .agg(sum(col("v")).as("s"), countStar().as("c"), avg(col("x")).as("ax"))
                .orderBy(col("k").asc())
                .limit(5)
                .collect();
        assertThat(result.schema().names()).containsExactly("k", "s", "c", "ax");
        assertThat(DuckDbOracle.normalize(result)).isEqualTo(duck.query(
                "SELECT k, sum(v) AS s, count(*) AS c, avg(x) AS ax FROM pq_t WHERE v > 100 GROUP BY k ORDER BY k LIMIT 5"));
        assertThat(df.select("k", "v").limit(3).collect().rows()).hasSize(3);
        assertThat(df.groupBy("k").agg(sum(col("v"))).explain()).contains("== Stages ==").contains("RepartitionExec");
    }

    @Test
    void userErrorsAreClearAndTheClusterKeepsServing() throws Exception {
        assertThatThrownBy(() -> session.sql("SELECT * FROM nope")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("nope");
        assertThatThrownBy(() -> session.sql("SELECT nope FROM pq_t")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("nope");
        assertThatThrownBy(() -> session.sql("SELEC k FROM pq_t")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("line 1");
        assertThatThrownBy(() -> session.sql("CREATE EXTERNAL TABLE gone STORED AS CSV LOCATION '"
                + data.resolve("missing.csv") + "'")).isInstanceOf(SluiceException.class).hasMessageContaining("missing.csv");
        assertSameAsDuckDb("SELECT count(*) FROM csv_t", true);
    }

    @Test
    void fileDeletedAfterRegistrationFailsTheQueryNotTheCluster() throws Exception {
        Path dir = data.resolve("vanishing");
        Files.createDirectories(dir);
        duck.execute("COPY (SELECT range AS a FROM range(10)) TO '" + dir.resolve("a.csv") + "' (FORMAT CSV, HEADER)");
        session.sql("CREATE EXTERNAL TABLE vanishing STORED AS CSV LOCATION '" + dir.resolve("a.csv") + "'");
        Files.delete(dir.resolve("a.csv"));
        assertThatThrownBy(() -> session.sql("SELECT sum(a) FROM vanishing").collect()).isInstanceOf(SluiceException.class)
                .hasMessageContaining("a.csv");
        assertSameAsDuckDb("SELECT count(*) FROM pq_t", true);
    }
}
