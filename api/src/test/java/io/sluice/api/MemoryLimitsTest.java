package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.testfixtures.DuckDbOracle;
import io.sluice.worker.Worker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two workers of 4 MiB each: a sort, a GROUP BY with many keys and a join whose build side is
 * several times the memory spill and still answer as DuckDB does; a window holds one partition at
 * a time, and one partition larger than memory goes to disk and answers as DuckDB does; a join
 * whose one key, or a window (with lag) whose one partition, cannot fit fails once with the memory
 * message and the same workers answer the next query; a result over
 * sluice.result.max-bytes fails. After every query no spill file is left and every worker's
 * memory is unreserved.
 */
class MemoryLimitsTest {
    @TempDir
    static Path data;

    private static DuckDbOracle duck;
    private static Session session;

    @BeforeAll
    static void start() throws Exception {
        duck = new DuckDbOracle();
        Files.createDirectories(data.resolve("t"));
        for (int f = 0; f < 4; f++) {
            duck.execute("COPY (SELECT range AS id, (range * 7919) % 50000 AS k, 'v' || lpad(((range * 7919) % 50000)::VARCHAR, 39, '0') AS s"
                    + " FROM range(" + f * 50_000 + ", " + (f + 1) * 50_000 + ")) TO '" + data.resolve("t/part-" + f + ".parquet")
                    + "' (FORMAT PARQUET)");
        }
        duck.execute("CREATE VIEW t AS SELECT * FROM read_parquet('" + data + "/t/*.parquet')");
        session = Session.local(ClusterTesting.duckDbDialect(LocalCluster.Options.of(2).withShufflePartitions(2).withWorkerMemory(4L << 20)));
        session.sql("CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION '" + data.resolve("t") + "'");
    }

    @AfterAll
    static void stop() throws Exception {
        ClusterTesting.closeAll(session, duck);
    }

    @Test
    void aSortLargerThanMemorySpillsAndAgreesWithDuckDb() throws Exception {
        String sql = "SELECT s, id FROM t WHERE id < 60000 ORDER BY s DESC, id";
        assertThat(DuckDbOracle.normalize(session.sql(sql).collect())).isEqualTo(duck.query(sql));
        assertThat(analyze("", sql)).containsPattern("SortExec.*spills=[1-9]");
        assertCleanWorkers();
    }

    @Test
    void aGroupByWithManyKeysSpillsAndAgreesWithDuckDb() throws Exception {
        String sql = "SELECT s, id % 100000 AS g, count(*) AS n, sum(id) AS total FROM t GROUP BY s, id % 100000";
        assertThat(DuckDbOracle.sorted(DuckDbOracle.normalize(session.sql(sql).collect())))
                .isEqualTo(DuckDbOracle.sorted(duck.query(sql)));
        assertThat(analyze("", sql)).containsPattern("HashAggregateExec: mode=final.*spills=[1-9]");
        assertCleanWorkers();
    }

    @Test
    void aJoinWhoseBuildSideIsSeveralTimesTheMemorySpillsAndAgreesWithDuckDb() throws Exception {
        String sql = "SELECT count(*) AS c, sum(a.id) AS x, sum(b.id) AS y FROM t a JOIN t b ON a.s = b.s";
        String noBroadcast = "SET sluice.join.broadcast-threshold = -1;";
        assertThat(DuckDbOracle.normalize(session.sql(noBroadcast + sql).collect())).isEqualTo(duck.query(sql));
        assertThat(analyze(noBroadcast, sql)).containsPattern("HashJoinExec.*spills=[1-9]");
        assertCleanWorkers();
    }

    @Test
    void aJoinThatCannotFitFailsOnceNamingTheJoinAndTheWorkersGoOn() throws Exception {
        // Every row has the same key: no partitioning splits the build side.
        assertThatThrownBy(() -> session.sql("SET sluice.join.broadcast-threshold = -1;"
                + "SELECT count(*) FROM t a JOIN t b ON a.id % 1 = b.id % 1").collect())
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining("HashJoinExec")
                .hasMessageContaining("build side, partition")
                .hasMessageContaining("sluice.worker.memory) is 4.0 MiB");
        assertCleanWorkers();
        String sql = "SELECT count(*) AS c, sum(k) AS s FROM t";
        assertThat(DuckDbOracle.normalize(session.sql(sql).collect())).isEqualTo(duck.query(sql));
    }

    @Test
    void aWindowHoldsOnePartitionAtATimeSpillsOneTooLargeAndFailsNamingTheWindowWhenItCannot() throws Exception {
        // 50,000 partitions of four rows: the open partition is tiny whatever the table's size
        String sql = "SELECT k, count(*) AS n, sum(r) AS total FROM (SELECT k, row_number() OVER (PARTITION BY k ORDER BY id) AS r "
                + "FROM t) GROUP BY k";
        assertThat(DuckDbOracle.sorted(DuckDbOracle.normalize(session.sql(sql).collect()))).isEqualTo(DuckDbOracle.sorted(duck.query(sql)));
        assertCleanWorkers();
        // one partition of all 200,000 rows with their 40-character strings, several times a worker's
        // 4 MiB, ordered by k (peer groups of four rows): it goes to disk and is computed from there
        String onePartition = "SELECT count(*) AS c, max(s) AS ms, sum(rn) AS rn, sum(rk) AS rk, sum(dr) AS dr, sum(nt) AS nt, "
                + "sum(run) AS run, sum(round(pr * 199999)) AS pr, sum(round(cd * 200000)) AS cd, max(n) AS n, min(lo) AS lo "
                + "FROM (SELECT s, row_number() OVER (ORDER BY k) AS rn, rank() OVER (ORDER BY k) AS rk, "
                + "dense_rank() OVER (ORDER BY k) AS dr, ntile(7) OVER (ORDER BY k) AS nt, sum(id) OVER (ORDER BY k) AS run, "
                + "percent_rank() OVER (ORDER BY k) AS pr, cume_dist() OVER (ORDER BY k) AS cd, "
                + "count(*) OVER (ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS n, "
                + "min(s) OVER (ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS lo FROM t)";
        assertThat(DuckDbOracle.normalize(session.sql(onePartition).collect())).isEqualTo(duck.query(onePartition));
        assertThat(analyze("", onePartition)).containsPattern("WindowExec.*spills=[1-9]");
        assertCleanWorkers();
        // lag needs the rows around each row: such a window still needs its partition in memory
        assertThatThrownBy(() -> session.sql("SELECT max(r) FROM (SELECT s, lag(id) OVER (ORDER BY id) AS r FROM t)")
                .collect())
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining("WindowExec")
                .hasMessageContaining("sluice.worker.memory) is 4.0 MiB");
        assertCleanWorkers();
    }

    @Test
    void aResultOverTheCapFailsAndFreesWhatWasFetched() throws Exception {
        assertThatThrownBy(() -> session.sql("SET sluice.result.max-bytes = 100k; SELECT id, s FROM t").collect())
                .isInstanceOf(SluiceException.class)
                .hasMessageContaining("larger than sluice.result.max-bytes (100.0 KiB)");
        ClusterTesting.awaitNoLeakedBuffers(session);
        assertThat(DuckDbOracle.normalize(session.sql("SET sluice.result.max-bytes = 100k; SELECT count(*) AS c FROM t").collect()))
                .isEqualTo(duck.query("SELECT count(*) AS c FROM t"));
    }

    private static String analyze(String settings, String sql) {
        return String.join("\n", DuckDbOracle.normalize(session.sql(settings + "EXPLAIN ANALYZE " + sql).collect()).stream()
                .map(row -> String.valueOf(row.get(0))).toList());
    }

    /** Every pool closed and nothing reserved (tasks end just after they report), and no spill directory left. */
    private static void assertCleanWorkers() throws Exception {
        LocalCluster cluster = session.localCluster();
        long deadline = System.currentTimeMillis() + 10_000;
        while (System.currentTimeMillis() < deadline && (!ClusterTesting.memoryReleased(cluster)
                || cluster.workers().stream().anyMatch(w -> w.allocator().getAllocatedMemory() > 0))) {
            Thread.sleep(50);
        }
        ClusterTesting.assertMemoryReleased(cluster);
        for (Worker w : cluster.workers()) {
            try (Stream<Path> entries = Files.list(w.shuffleServer().rootDirectory())) {
                assertThat(entries.filter(p -> p.getFileName().toString().startsWith("spill-")))
                        .as("spill directories on " + w.workerId()).isEmpty();
            }
        }
        ClusterTesting.assertNoLeakedBuffers(session);
    }
}
