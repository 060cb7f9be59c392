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
 * A real cluster of processes: {@code bin/sluice coordinator}, two {@code bin/sluice worker}s, and
 * {@code bin/sluice sql --coordinator} clients sending scripts over HTTP. A failing query must
 * leave the cluster serving, and every node must stop on SIGTERM.
 */
class ClusterProcessIT {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    static Path data;

    private static DuckDbOracle duck;
    private static final List<SluiceProcess> nodes = new ArrayList<>();
    private static int httpPort;

    @BeforeAll
    static void startCluster() throws Exception {
        duck = new DuckDbOracle();
        TestData.write(duck, data);
        SluiceProcess coordinator = SluiceProcess.startCoordinator(data, READY_TIMEOUT);
        nodes.add(coordinator);
        int clusterPort = coordinator.coordinatorPorts().cluster();
        httpPort = coordinator.coordinatorPorts().http();
        // the whole line, hosts included, as a user reads it to point workers and clients at the node
        assertThat(coordinator.awaitStderrLine("coordinator ready:", READY_TIMEOUT))
                .isEqualTo("coordinator ready: cluster pekko://sluice@127.0.0.1:" + clusterPort + ", http 127.0.0.1:" + httpPort);
        for (int i = 1; i <= 2; i++) {
            nodes.add(SluiceProcess.start(data, "worker", "--coordinator", "127.0.0.1:" + clusterPort, "--id", "w" + i,
                    "--slots", "2"));
        }
        for (int i = 1; i < nodes.size(); i++) {
            SluiceProcess worker = nodes.get(i);
            String ready = worker.awaitStderrLine("worker ready:", READY_TIMEOUT);
            SluiceProcess.WorkerPorts ports = worker.workerPorts();
            assertThat(ready).isEqualTo("worker ready: w" + i + " on 127.0.0.1:" + ports.cluster()
                    + " joined pekko://sluice@127.0.0.1:" + clusterPort + ", shuffle 127.0.0.1:" + ports.shuffle() + ", 2 slots");
            // the ports a node names are the ones it bound: the coordinator learnt this shuffle port from the worker
            assertThat(ports.cluster()).isPositive().isNotEqualTo(ports.shuffle());
            coordinator.awaitStderrMatch(Pattern.compile("worker w" + i + " registered with 2 slots \\(shuffle "
                    + "127\\.0\\.0\\.1:" + ports.shuffle() + "\\)"), READY_TIMEOUT);
        }
    }

    @AfterAll
    static void stopCluster() throws Exception {
        try {
            // workers first, so that they leave a live coordinator
            for (int i = nodes.size() - 1; i >= 0; i--) {
                nodes.get(i).close();
            }
        } finally {
            if (duck != null) {
                duck.close();
            }
        }
    }

    /** Runs a script as its own client session; {@code extra} options (e.g. {@code --shared-catalog}) come first. */
    private static SluiceProcess.Result runScript(String name, String script, String... extra) throws Exception {
        Path file = data.resolve(name + ".sql");
        Files.writeString(file, script);
        List<String> args = new ArrayList<>(List.of("sql", "--coordinator", "127.0.0.1:" + httpPort));
        args.addAll(List.of(extra));
        args.addAll(List.of("-f", file.toString(), "--format", "csv"));
        return SluiceProcess.run(data, RUN_TIMEOUT, args.toArray(String[]::new));
    }

    @Test
    void queriesErrorsAndMoreQueriesThenEveryNodeStopsOnSigterm() throws Exception {
        String first = "SELECT k, sum(v) AS s, count(*) AS c, max(dt) AS last_dt FROM csv_t WHERE v > 100 "
                + "GROUP BY k ORDER BY k NULLS LAST LIMIT 5";
        // the tables go to the cluster's shared catalog, so that the later runs (other sessions) see them
        SluiceProcess.Result good = runScript("good", TestData.createTables(data) + first + ";\n", "--shared-catalog");
        assertThat(good.exitCode()).as("stderr:\n%s", good.stderr()).isZero();
        DuckDbAnswer.assertSame(duck, first, good.stdout());

        SluiceProcess.Result bad = runScript("bad", "SELECT no_such_column FROM pq_t;\n");
        assertThat(bad.exitCode()).isEqualTo(1);
        assertThat(bad.stdout()).isEmpty();
        assertThat(bad.stderrLines()).as("stderr:\n%s", bad.stderr())
                .anyMatch(l -> l.startsWith("error:") && l.contains("no_such_column"));

        String again = "SELECT k, sum(d) AS sd, avg(x) AS ax, count(v) AS nv FROM pq_t GROUP BY k ORDER BY sd DESC, k NULLS LAST";
        SluiceProcess.Result good2 = runScript("again", again + ";\n");
        assertThat(good2.exitCode()).as("stderr:\n%s", good2.stderr()).isZero();
        DuckDbAnswer.assertSame(duck, again, good2.stdout());

        for (int i = nodes.size() - 1; i >= 0; i--) {
            SluiceProcess node = nodes.get(i);
            assertThat(node.isAlive()).as("node %d still serving", i).isTrue();
            assertThat(node.terminate(STOP_TIMEOUT)).as("node %d stops on SIGTERM; stderr:\n%s", i, node.stderr()).isTrue();
        }
    }
}
