package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testfixtures.DuckDbOracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog survives its coordinator: {@code sluice coordinator --data-dir D} and a worker run as
 * processes; a client creates a database, managed and external tables, a view and a temporary
 * view; the coordinator process is stopped and a new one started on the same data directory (and
 * a new worker); every table and the view are there and answer as DuckDB does on the same files,
 * the temporary view is gone; {@code DROP TABLE} removes the managed table's files and leaves the
 * external table's.
 */
class CatalogProcessIT {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    static Path data;

    private static DuckDbOracle duck;
    private static final List<SluiceProcess> nodes = new ArrayList<>();
    private static int httpPort;

    @BeforeAll
    static void prepare() throws Exception {
        duck = new DuckDbOracle();
        TestData.write(duck, data);
        duck.execute("CREATE SCHEMA shop");
        duck.execute("CREATE VIEW shop.raw AS SELECT * FROM pq_t");
        duck.execute("CREATE VIEW shop.managed AS SELECT k, v, dt FROM pq_t WHERE v > 100");
        duck.execute("CREATE VIEW shop.per_k AS SELECT k, count(*) AS c, sum(v) AS s FROM shop.managed GROUP BY k");
        duck.execute("CREATE VIEW shop.small AS SELECT * FROM (VALUES (1, 'x'), (2, 'y, z')) t(a, b)");
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            stopNodes();
        } finally {
            if (duck != null) {
                duck.close();
            }
        }
    }

    private static void startNodes() throws Exception {
        SluiceProcess coordinator = SluiceProcess.startCoordinator(data, READY_TIMEOUT, "--data-dir", data.toString());
        nodes.add(coordinator);
        int clusterPort = coordinator.coordinatorPorts().cluster();
        httpPort = coordinator.coordinatorPorts().http();
        SluiceProcess worker = SluiceProcess.start(data, "worker", "--coordinator", "127.0.0.1:" + clusterPort, "--id",
                "w" + nodes.size(), "--slots", "2");
        nodes.add(worker);
        worker.awaitStderrLine("worker ready:", READY_TIMEOUT);
    }

    /** Workers first, so that they leave a live coordinator; each must stop on SIGTERM. */
    private static void stopNodes() throws Exception {
        for (int i = nodes.size() - 1; i >= 0; i--) {
            SluiceProcess node = nodes.get(i);
            if (node.isAlive()) {
                assertThat(node.terminate(STOP_TIMEOUT)).as("node stops on SIGTERM; stderr:\n%s", node.stderr()).isTrue();
            }
        }
        nodes.clear();
    }

    /** Runs a script on the shared catalog as its own client session; its last statement's result as CSV. */
    private static SluiceProcess.Result run(String name, String script) throws Exception {
        Path file = data.resolve(name + ".sql");
        Files.writeString(file, script);
        return SluiceProcess.run(data, RUN_TIMEOUT, "sql", "--coordinator", "127.0.0.1:" + httpPort, "--shared-catalog",
                "-f", file.toString(), "--format", "csv");
    }

    private static String ok(String name, String script) throws Exception {
        SluiceProcess.Result result = run(name, script);
        assertThat(result.exitCode()).as("%s; stderr:\n%s", name, result.stderr()).isZero();
        return result.stdout();
    }

    private static void assertSameAsDuckDb(String name, String query) throws Exception {
        DuckDbAnswer.assertSame(duck, query, ok(name, query + ";\n"));
    }

    @Test
    void tablesAndViewsSurviveACoordinatorRestartAndDropTableKeepsOnlyExternalFiles() throws Exception {
        startNodes();
        ok("create", "CREATE DATABASE shop COMMENT 'the shop';\n"
                + "USE shop;\n"
                + "CREATE EXTERNAL TABLE raw STORED AS PARQUET LOCATION '" + data.resolve("t.parquet") + "';\n"
                + "CREATE TABLE managed USING parquet PARTITIONED BY (dt) AS SELECT k, v, dt FROM raw WHERE v > 100;\n"
                + "CREATE TABLE shop.small (a INT NOT NULL, b STRING COMMENT 'text') USING csv;\n"
                + "INSERT INTO small VALUES (1, 'x'), (2, 'y, z');\n"
                + "CREATE VIEW per_k AS SELECT k, count(*) AS c, sum(v) AS s FROM managed GROUP BY k;\n"
                + "CREATE TEMPORARY VIEW gone AS SELECT 1 AS one;\n"
                + "SELECT count(*) FROM gone;\n");
        Path managed = data.resolve("warehouse/shop.db/managed");
        assertThat(managed.resolve("dt=2024-01-01")).isDirectory();
        assertThat(data.resolve("catalog/shop.json")).isRegularFile();
        assertSameAsDuckDb("before", "SELECT k, c, s FROM shop.per_k ORDER BY k NULLS FIRST");

        stopNodes();
        startNodes();

        String tables = ok("show", "SHOW TABLES IN shop;\n");
        assertThat(tables.lines().toList()).containsExactly("name,kind", "managed,table", "per_k,view", "raw,table",
                "small,table");
        assertSameAsDuckDb("managed", "SELECT dt, count(*) AS n, sum(v) AS s FROM shop.managed GROUP BY dt ORDER BY dt"
                + " LIMIT 20");
        assertSameAsDuckDb("view", "SELECT k, c, s FROM shop.per_k ORDER BY k NULLS FIRST");
        assertSameAsDuckDb("external", "SELECT k, count(*) AS n, sum(d) AS sd FROM shop.raw GROUP BY k ORDER BY k NULLS FIRST");
        assertSameAsDuckDb("small", "SELECT a, b FROM shop.small ORDER BY a");
        String created = ok("show-create", "SHOW CREATE TABLE shop.small;\n");
        assertThat(created).contains("a INT NOT NULL", "b STRING COMMENT 'text'", "USING csv",
                "LOCATION '" + data.resolve("warehouse/shop.db/small") + "'");

        SluiceProcess.Result temporary = run("temporary", "SELECT * FROM gone;\n");
        assertThat(temporary.exitCode()).isEqualTo(1);
        assertThat(temporary.stderr()).contains("unknown table 'gone'");

        ok("drop", "DROP TABLE shop.managed;\nDROP TABLE shop.raw;\n");
        assertThat(managed).doesNotExist();
        assertThat(data.resolve("t.parquet")).isRegularFile();
        SluiceProcess.Result dropped = run("dropped", "SELECT count(*) FROM shop.managed;\n");
        assertThat(dropped.exitCode()).isEqualTo(1);
        assertThat(dropped.stderr()).contains("unknown table 'shop.managed'");
        SluiceProcess.Result missing = run("missing", "DROP TABLE shop.managed;\n");
        assertThat(missing.stderr()).contains("cannot drop table 'shop.managed': unknown table 'shop.managed'");
        assertSameAsDuckDb("after", "SELECT a, b FROM shop.small ORDER BY a");
        stopNodes();
    }
}
