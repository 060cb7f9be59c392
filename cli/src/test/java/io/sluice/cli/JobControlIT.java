package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.coordinator.RunningQueries;
import io.sluice.testfixtures.DuckDbOracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Running queries seen and stopped from the command line, against a coordinator and a worker
 * process: {@code sluice jobs} lists a running query and {@code sluice cancel} stops it; Ctrl-C in
 * {@code sluice sql} cancels its query on the coordinator; and a worker killed and restarted on the
 * same address is taken as a new incarnation and runs the next query.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class JobControlIT {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(60);
    /** Minutes of work: 3.6 billion pairs. */
    private static final String LONG_QUERY = "SELECT count(*) AS pairs FROM t a, t b WHERE a.k <> b.k";

    @TempDir
    static Path data;
    private static DuckDbOracle duck;
    private static SluiceProcess coordinator;
    private static SluiceProcess worker;
    private static int httpPort;
    private static int clusterPort;
    /** The first worker's ports (0 until it started: it takes free ones), which its restarts bind again. */
    private static int workerPort;
    private static int workerShufflePort;
    private static String table;

    @BeforeAll
    static void startCluster() throws Exception {
        duck = new DuckDbOracle();
        Path t = Files.createDirectories(data.resolve("t"));
        for (int f = 0; f < 4; f++) {
            duck.execute("COPY (SELECT range AS k FROM range(" + f * 15000 + ", " + (f + 1) * 15000 + ")) TO '"
                    + t.resolve("part-" + f + ".parquet") + "' (FORMAT PARQUET)");
        }
        duck.execute("CREATE VIEW t AS SELECT * FROM read_parquet('" + t + "/*.parquet')");
        table = "CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION '" + t + "';\n";
        coordinator = SluiceProcess.startCoordinator(data, READY_TIMEOUT, "--allow-job-jars");
        clusterPort = coordinator.coordinatorPorts().cluster();
        httpPort = coordinator.coordinatorPorts().http();
        worker = startWorker();
        workerPort = worker.workerPorts().cluster();
        workerShufflePort = worker.workerPorts().shuffle();
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (worker != null) {
            worker.close();
        }
        if (coordinator != null) {
            coordinator.close();
        }
        if (duck != null) {
            duck.close();
        }
    }

    /** The client draws its progress bar (asked for: its stderr is no terminal) until its query is cancelled. */
    @Test
    @Order(1)
    void aListedQueryIsCancelledFromTheCommandLine() throws Exception {
        try (SluiceProcess client = SluiceProcess.start(data, "sql", "--coordinator", "127.0.0.1:" + httpPort,
                "--progress", "-e", table + LONG_QUERY)) {
            String id = awaitListedQuery(client);
            SluiceProcess.Result cancel = SluiceProcess.run(data, RUN_TIMEOUT, "cancel", "--coordinator",
                    "127.0.0.1:" + httpPort, id);
            assertThat(cancel.exitCode()).as(cancel.stderr()).isZero();
            assertThat(cancel.stderr()).contains("cancelled " + id);
            SluiceProcess.Result result = client.await(Duration.ofSeconds(15));
            assertThat(result.exitCode()).isNotZero();
            assertThat(result.stderr()).contains("was cancelled").containsPattern("\\[Stage \\d+:[=> ]*\\(\\d+/\\d+\\)]");
            awaitNoQueries();
            SluiceProcess.Result again = SluiceProcess.run(data, RUN_TIMEOUT, "cancel", "--coordinator",
                    "127.0.0.1:" + httpPort, id);
            assertThat(again.exitCode()).isNotZero();
            assertThat(again.stderr()).contains("no running query " + id);
        }
    }

    @Test
    @Order(2)
    void ctrlCInSqlCancelsTheQuery() throws Exception {
        int logBefore = coordinator.stderr().length();
        try (SluiceProcess client = startLongQuery()) {
            String id = awaitListedQuery(client);
            Assumptions.assumeFalse(client.ignoresInterrupts(), "SKIP: this test's processes ignore "
                    + "SIGINT (the build was started in the background of a non-interactive shell), so no Ctrl-C can reach the client");
            client.interrupt();
            client.await(Duration.ofSeconds(15));
            awaitNoQueries();
            assertThat(coordinator.stderr().substring(logBefore)).contains("query " + id + ": cancelled, its client");
        }
    }

    @Test
    @Order(3)
    void aWorkerRestartedOnTheSameAddressIsANewIncarnation() throws Exception {
        int logBefore = coordinator.stderr().length();
        worker.kill();
        worker = startWorker();
        String query = "SELECT count(*) AS c, sum(k) AS s FROM t WHERE k % 3 = 0";
        SluiceProcess.Result result = SluiceProcess.run(data, RUN_TIMEOUT, "sql", "--coordinator",
                "127.0.0.1:" + httpPort, "-e", table + query, "--format", "csv");
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        DuckDbAnswer.assertSame(duck, query, result.stdout());
        assertThat(coordinator.stderr().substring(logBefore)).contains("worker w1 registered");
    }

    private static SluiceProcess startLongQuery() throws Exception {
        return SluiceProcess.start(data, "sql", "--coordinator", "127.0.0.1:" + httpPort, "-e", table + LONG_QUERY);
    }

    /** Polls {@code sluice jobs} until it lists a query; its id. */
    private static String awaitListedQuery(SluiceProcess client) throws Exception {
        long deadline = System.nanoTime() + RUN_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            assertThat(client.isAlive()).as("the client ended early: " + client.stderr()).isTrue();
            List<RunningQueries.Info> listed = RunningQueries.fromJson(jobs());
            if (!listed.isEmpty()) {
                return listed.get(0).id();
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no query listed by 'sluice jobs'");
    }

    /** The coordinator lists no query within 5 s (asked over HTTP: a JVM per poll would eat the time). */
    private static void awaitNoQueries() throws Exception {
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        java.net.http.HttpRequest.Builder request = java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + httpPort + "/v1/jobs"));
        request.header("Authorization", "Bearer " + SluiceProcess.SECRET);
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        String listed;
        do {
            listed = http.send(request.build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body();
            if (listed.equals("[]")) {
                break;
            }
            Thread.sleep(50);
        } while (System.nanoTime() < deadline);
        assertThat(listed).isEqualTo("[]");
        assertThat(jobs()).as("sluice jobs").isEqualTo("[]");
    }

    private static String jobs() throws Exception {
        SluiceProcess.Result jobs = SluiceProcess.run(data, RUN_TIMEOUT, "jobs", "--coordinator", "127.0.0.1:" + httpPort);
        assertThat(jobs.exitCode()).as(jobs.stderr()).isZero();
        return jobs.stdout().strip();
    }

    private static SluiceProcess startWorker() throws Exception {
        SluiceProcess w = SluiceProcess.start(data, "worker", "--coordinator", "127.0.0.1:" + clusterPort, "--id", "w1",
                "--slots", "2", "--port", String.valueOf(workerPort), "--shuffle-port", String.valueOf(workerShufflePort));
        w.awaitStderrLine("worker ready:", READY_TIMEOUT);
        return w;
    }

    /**
     * Cluster deploy mode between processes: the examples jar goes to the coordinator process, whose
     * session runs its reports, the last grouping by a user function that the worker process loads
     * from the jar; the job's output comes back to the submitter's stdout.
     */
    @Test
    @Order(10)
    void aJobJarWithAUserFunctionRunsInClusterMode() throws Exception {
        Path examples = SubmitIT.examplesJar();
        SluiceProcess.Result r = SluiceProcess.run(data, Duration.ofSeconds(180), "submit", "--deploy-mode", "cluster",
                "--coordinator", "127.0.0.1:" + httpPort, examples.toString(), data.resolve("sales-job").toString());
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("Revenue by region", "| north", "Orders by size (a user-defined function)",
                "| large", "| none", "| small");
        SluiceProcess.Result missing = SluiceProcess.run(data, Duration.ofSeconds(60), "submit", "--deploy-mode", "cluster",
                "--coordinator", "127.0.0.1:" + httpPort, "--class", "no.such.Job", examples.toString());
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.stderr()).contains("error: class no.such.Job not found in the job jar");
    }
}
