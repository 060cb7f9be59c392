package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the commands print, as a user runs them through bin/sluice (conf/logback.xml): a client
 * ({@code sql}, {@code tpch}) prints its results and errors only, no INFO line on stdout or stderr;
 * {@code --verbose} brings INFO back; a node writes its own log file under {@code SLUICE_LOG_DIR}.
 */
class QuietLogsIT {
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(180);
    /** A Logback line at INFO ("12:00:00.000 INFO  [main] ...") or any other line naming the level. */
    private static final Pattern INFO = Pattern.compile("\\bINFO\\b");

    @TempDir
    static Path data;

    @BeforeAll
    static void writeTable() throws Exception {
        StringBuilder csv = new StringBuilder("id,name\n");
        for (int i = 1; i <= 35; i++) {
            csv.append(i).append(",name-").append(i).append('\n');
        }
        Files.writeString(data.resolve("t.csv"), csv);
    }

    private static String query() {
        return "CREATE EXTERNAL TABLE t STORED AS CSV LOCATION '" + data.resolve("t.csv") + "'; SELECT count(*) AS n FROM t";
    }

    private static List<String> infoLines(String text) {
        return text.lines().filter(line -> INFO.matcher(line).find()).toList();
    }

    @Test
    void sqlPrintsTheResultAndNoInfoLine() throws Exception {
        SluiceProcess.Result result = SluiceProcess.run(data, RUN_TIMEOUT, "sql", "--local", "2", "--format", "csv", "-e", query());
        assertThat(result.exitCode()).as("stderr:\n%s", result.stderr()).isZero();
        assertThat(result.stdout()).isEqualTo("n\n35\n");
        assertThat(infoLines(result.stderr())).as("stderr:\n%s", result.stderr()).isEmpty();
    }

    @Test
    void verboseBringsInfoLinesBackOnStderrOnly() throws Exception {
        SluiceProcess.Result result = SluiceProcess.run(data, RUN_TIMEOUT, "sql", "--verbose", "--local", "1", "--format", "csv",
                "-e", query());
        assertThat(result.exitCode()).as("stderr:\n%s", result.stderr()).isZero();
        assertThat(result.stdout()).isEqualTo("n\n35\n");
        assertThat(infoLines(result.stderr())).anyMatch(line -> line.contains("CoordinatorActor - worker worker-1 registered"));
    }

    @Test
    void anErrorIsOneLineAndNoInfo() throws Exception {
        SluiceProcess.Result result = SluiceProcess.run(data, RUN_TIMEOUT, "sql", "--local", "1", "-e", "SELECT nope FROM nowhere");
        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.stdout()).isEmpty();
        assertThat(result.stderr()).contains("error: ").contains("nowhere");
        assertThat(infoLines(result.stderr())).as("stderr:\n%s", result.stderr()).isEmpty();
    }

    @Test
    void tpchPrintsItsReportAndNoInfoLine() throws Exception {
        Path bench = SluiceProcess.repoRoot().resolve("bench/target");
        boolean built;
        try (Stream<Path> jars = Files.exists(bench) ? Files.list(bench) : Stream.empty()) {
            built = jars.anyMatch(p -> p.getFileName().toString().matches("sluice-bench-.*\\d\\.jar|sluice-bench-.*SNAPSHOT\\.jar"))
                    && Files.isDirectory(bench.resolve("lib"));
        }
        // the bench module is packaged after this one in the reactor: a clean 'mvn verify' has no bench jar yet
        assumeTrue(built, "SKIP: bin/sluice tpch needs bench/target built (mvn -DskipTests package)");
        SluiceProcess.Result result = SluiceProcess.run(data, Duration.ofMinutes(5), "tpch", "--sf", "0.01", "--query", "1,6",
                "--data", data.resolve("tpch").toString());
        assertThat(result.exitCode()).as("stderr:\n%s", result.stderr()).isZero();
        assertThat(result.stdout()).contains("2 of 2 queries ran");
        assertThat(infoLines(result.stdout())).as("stdout:\n%s", result.stdout()).isEmpty();
        assertThat(infoLines(result.stderr())).as("stderr:\n%s", result.stderr()).isEmpty();
    }

    @Test
    void aNodeWritesItsOwnLogFile() throws Exception {
        Path logs = data.resolve("node-logs");
        try (SluiceProcess local = SluiceProcess.start(data, "", Map.of("SLUICE_LOG_DIR", logs.toString()),
                "local", "--workers", "1", "--http-port", "0")) {
            local.awaitStderrLine("local cluster ready", RUN_TIMEOUT);
            Path file;
            try (Stream<Path> files = Files.list(logs)) {
                file = files.filter(p -> p.getFileName().toString().startsWith("local-")).findFirst().orElseThrow();
            }
            assertThat(file.getFileName().toString()).endsWith(".log");
            assertThat(Files.readString(file)).contains("INFO").contains("CoordinatorActor - worker worker-1 registered");
        }
    }
}
