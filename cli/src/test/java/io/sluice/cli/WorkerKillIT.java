package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testfixtures.DuckDbOracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} of a worker process while it runs a task, in a map stage of an aggregation, in a
 * join's map stage, in a reduce stage and in one of two stages reading one reused shuffle: the query still gets DuckDB's answer, and the coordinator's
 * log says what it ran again. A fresh worker joins after each kill, so three are always there.
 */
class WorkerKillIT {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(180);

    @TempDir
    static Path data;

    private static DuckDbOracle duck;
    private static final List<SluiceProcess> nodes = new ArrayList<>();
    private static SluiceProcess coordinator;
    private static int clusterPort;
    private static int httpPort;
    private static int nextWorker = 1;

    @BeforeAll
    static void startCluster() throws Exception {
        duck = new DuckDbOracle();
        Path big = data.resolve("big");
        Files.createDirectories(big);
        for (int f = 0; f < 12; f++) {
            duck.execute("COPY (SELECT range AS id, range % 50000 AS k, (range * 7) % 1000 AS v FROM range("
                    + f * 300_000 + ", " + (f + 1) * 300_000 + ")) TO '" + big.resolve("part-" + f + ".parquet")
                    + "' (FORMAT PARQUET)");
        }
        duck.execute("CREATE VIEW big AS SELECT * FROM read_parquet('" + big + "/*.parquet')");
        coordinator = SluiceProcess.startCoordinator(data, READY_TIMEOUT);
        nodes.add(coordinator);
        clusterPort = coordinator.coordinatorPorts().cluster();
        httpPort = coordinator.coordinatorPorts().http();
        for (int i = 0; i < 3; i++) {
            startWorker();
        }
    }

    @AfterAll
    static void stopCluster() throws Exception {
        try {
            for (int i = nodes.size() - 1; i >= 0; i--) {
                nodes.get(i).close();
            }
        } finally {
            if (duck != null) {
                duck.close();
            }
        }
    }

    /** A two-stage aggregation; a worker dies while it runs a map task. */
    @Test
    void killedInTheMapStageOfAnAggregation() throws Exception {
        killMidQuery("SELECT k % 1000 AS g, count(*) AS c, sum(v) AS s FROM big GROUP BY k % 1000 ORDER BY g", "agg", 0);
    }

    /** A partitioned join (both sides shuffled); a worker dies while it runs a task of a map side. */
    @Test
    void killedInTheMapStageOfAJoin() throws Exception {
        killMidQuery("SELECT count(*) AS c, sum(a.v + b.v) AS s FROM big a JOIN big b ON a.id = b.id WHERE a.v < 900",
                "join", 0, "SET sluice.join.broadcast-threshold = -1;\n");
    }

    /** A worker dies while it runs a reduce task, after the map outputs (some on it) were written. */
    @Test
    void killedInTheReduceStage() throws Exception {
        killMidQuery("SELECT k, count(*) AS c, sum(v) AS s FROM big GROUP BY k HAVING sum(v) > 100 ORDER BY k", "reduce", 1);
    }

    /**
     * A worker dies in a stage that reads a shuffle another stage reads too: the CTE's aggregate is
     * one exchange (stage 0) that both join sides read, in stages 1 and 2. The map outputs the
     * victim held are recomputed and both readers get the right rows.
     */
    @Test
    void killedWhileTwoStagesReadOneReusedShuffle() throws Exception {
        String settings = "SET sluice.join.broadcast-threshold = -1;\n";
        String query = "WITH agg AS (SELECT k % 1000 AS g, count(*) AS c, sum(v) AS s FROM big GROUP BY k % 1000) "
                + "SELECT a.g, a.c, a.s, b.c AS bc, b.s AS bs FROM agg a JOIN agg b ON a.g = b.g + 1 ORDER BY a.g";
        Path script = data.resolve("reused-explain.sql");
        Files.writeString(script, "CREATE EXTERNAL TABLE big STORED AS PARQUET LOCATION '" + data.resolve("big") + "';\n"
                + settings + "EXPLAIN " + query + ";\n");
        try (SluiceProcess client = SluiceProcess.start(data, "sql", "--coordinator", "127.0.0.1:" + httpPort,
                "-f", script.toString(), "--format", "csv")) {
            SluiceProcess.Result plan = client.await(RUN_TIMEOUT);
            assertThat(plan.exitCode()).as("client stderr:\n%s", plan.stderr()).isZero();
            String stages = plan.stdout().substring(plan.stdout().indexOf("== Stages =="));
            assertThat(stages.split("mode=partial", -1)).as("one partial aggregate stage:\n%s", stages).hasSize(2);
            assertThat(stages).containsPattern("Stage 1 \\(\\d+ tasks, after stages 0\\)")
                    .containsPattern("Stage 2 \\(\\d+ tasks, after stages 0, 1\\)");
        }
        killMidQuery(query, "reused", 1, settings);
    }

    private static void killMidQuery(String query, String name, int stage) throws Exception {
        killMidQuery(query, name, stage, "");
    }

    /**
     * Runs {@code query} from a client process, kills -9 the newest worker as soon as it logs that
     * it runs a task of {@code stage}, and checks the answer and the coordinator's account of it.
     */
    private static void killMidQuery(String query, String name, int stage, String settings) throws Exception {
        SluiceProcess victim = nodes.get(nodes.size() - 1);
        int coordinatorLogBefore = coordinator.stderr().length();
        Path script = data.resolve(name + ".sql");
        Files.writeString(script, "CREATE EXTERNAL TABLE big STORED AS PARQUET LOCATION '" + data.resolve("big") + "';\n"
                + settings + query + ";\n");
        try (SluiceProcess client = SluiceProcess.start(data, "sql", "--coordinator", "127.0.0.1:" + httpPort,
                "-f", script.toString(), "--format", "csv")) {
            victim.awaitStderrMatch(Pattern.compile("running task \\S+ \\(job \\S+, stage " + stage + ","), RUN_TIMEOUT, client);
            victim.kill();
            SluiceProcess.Result result = client.await(RUN_TIMEOUT);
            assertThat(result.exitCode()).as("client stderr:\n%s", result.stderr()).isZero();
            DuckDbAnswer.assertSame(duck, query, result.stdout());
            String coordinatorLog = coordinator.stderr().substring(coordinatorLogBefore);
            assertThat(coordinatorLog).as("the coordinator's log after the kill; the victim's log:\n%s", victim.stderr())
                    .containsPattern("(unreachable|is gone); re-running its [1-9]\\d* tasks|recomputing \\d+ map outputs");
        } finally {
            // whatever happened, the next test starts with three live workers
            victim.kill();
            nodes.remove(victim);
            startWorker();
        }
    }

    private static void startWorker() throws Exception {
        // the worker logs each task it starts at INFO, which this test waits for
        SluiceProcess worker = SluiceProcess.startWithJavaOptions(data, "-Dorg.slf4j.simpleLogger.log.io.sluice.worker=info",
                "worker", "--coordinator", "127.0.0.1:" + clusterPort,
                "--id", "w" + nextWorker++, "--slots", "2");
        nodes.add(worker);
        worker.awaitStderrLine("worker ready:", READY_TIMEOUT);
    }
}
