package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testfixtures.DuckDbOracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/sluice sql --local 2} as a user runs it: CSV on stdout equal to DuckDB's answer, and
 * user errors as an {@code error:} line on stderr with a failing exit code and nothing on stdout.
 * Each case is its own process.
 */
class SqlCommandIT {
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(120);
    /** The stop took 2-8 s with a graceful leave on a loaded 2-core machine, 10 s more on a shutdown timeout. */
    private static final Duration STOP_BOUND = Duration.ofSeconds(5);

    @TempDir
    static Path data;

    private static DuckDbOracle duck;
    private static String createTables;

    @BeforeAll
    static void writeData() throws Exception {
        duck = new DuckDbOracle();
        TestData.write(duck, data);
        createTables = TestData.createTables(data);
    }

    @AfterAll
    static void closeDuckDb() throws Exception {
        if (duck != null) {
            duck.close();
        }
    }

    private static SluiceProcess.Result runScript(String name, String script, String... extraArgs) throws Exception {
        Path file = data.resolve(name + ".sql");
        Files.writeString(file, script);
        String[] args = new String[4 + extraArgs.length];
        args[0] = "sql";
        args[1] = "--local=2";
        args[2] = "-f";
        args[3] = file.toString();
        System.arraycopy(extraArgs, 0, args, 4, extraArgs.length);
        return SluiceProcess.run(data, RUN_TIMEOUT, args);
    }

    private static void assertSameAsDuckDb(String name, String query) throws Exception {
        SluiceProcess.Result result = runScript(name, createTables + query + ";\n", "--format", "csv");
        assertThat(result.exitCode()).as("exit code; stderr:\n%s", result.stderr()).isZero();
        DuckDbAnswer.assertSame(duck, query, result.stdout());
    }

    private static void assertUserError(String name, String script, String named) throws Exception {
        SluiceProcess.Result result = runScript(name, script, "--format", "csv");
        assertThat(result.exitCode()).as("exit code; stderr:\n%s", result.stderr()).isEqualTo(1);
        assertThat(result.stdout()).as("stdout").isEmpty();
        assertThat(result.stderrLines().stream().filter(l -> l.startsWith("error:")))
                .as("stderr:\n%s", result.stderr()).singleElement().asString().contains(named);
        assertThat(result.stderr()).as("no stack trace").doesNotContain("\tat ");
    }

    @Test
    void filterGroupByOrderByLimitOnCsv() throws Exception {
        assertSameAsDuckDb("csv-group", "SELECT k, sum(v) AS s, count(*) AS c, min(dt) AS first_dt, max(x) AS mx "
                + "FROM csv_t WHERE v > 100 GROUP BY k ORDER BY k NULLS LAST LIMIT 5");
    }

    @Test
    void filterGroupByOrderByLimitOnParquet() throws Exception {
        assertSameAsDuckDb("parquet-group", "SELECT k, sum(d) AS sd, count(v) AS nv, avg(x) AS ax, max(dt) AS last_dt "
                + "FROM pq_t WHERE x > 10 GROUP BY k ORDER BY sd DESC, k NULLS LAST LIMIT 6");
    }

    @Test
    void nullsStringsWithQuotesAndDecimalsInTheOutput() throws Exception {
        assertSameAsDuckDb("nulls", "SELECT id, k, v, x, d, dt FROM pq_t WHERE k IS NULL OR v IS NULL OR k LIKE 'five%' "
                + "ORDER BY id LIMIT 40");
    }

    @Test
    void emptyResultIsTheHeaderLineOnly() throws Exception {
        SluiceProcess.Result result = runScript("empty", createTables + "SELECT k, v FROM csv_t WHERE v > 1000000;",
                "--format", "csv");
        assertThat(result.exitCode()).as("stderr:\n%s", result.stderr()).isZero();
        assertThat(result.stdout()).isEqualTo("k,v\n");
    }

    /**
     * A one-row query over a small Parquet file, as scripts/bench-cli-start.sh times it: the answer,
     * exit code 0, and a stop without any coordinated shutdown phase running into its timeout. The
     * startup trace shows the phases in order, the cluster closed before the process exits, and
     * the stop (results printed to exit) within {@link #STOP_BOUND}: the nodes halt without leaving.
     */
    @Test
    void oneRowQueryStopsWithoutShutdownTimeouts() throws Exception {
        String query = "SELECT count(*) AS n FROM pq_t";
        Path file = data.resolve("one-row.sql");
        Files.writeString(file, createTables + query + ";\n");
        SluiceProcess.Result result;
        try (SluiceProcess p = SluiceProcess.startWithJavaOptions(data, "-Dsluice.debug.startup-trace=true",
                "sql", "--local=2", "--format", "csv", "-f", file.toString())) {
            result = p.await(RUN_TIMEOUT);
        }
        assertThat(result.exitCode()).as("exit code; stderr:\n%s", result.stderr()).isZero();
        DuckDbAnswer.assertSame(duck, query, result.stdout());
        assertThat(result.stderr()).as("stderr").doesNotContain("CoordinatedShutdown").doesNotContain("Coordinated shutdown");
        assertThat(result.stderrLines().stream().filter(l -> l.startsWith("startup-trace"))
                .map(l -> l.replaceFirst("^startup-trace +\\d+ ms  ", "").replaceFirst(" \\(.*\\)$", "")))
                .as("stderr:\n%s", result.stderr())
                .containsSubsequence("main started", "coordinator started", "workers registered", "session open",
                        "results printed", "closing the embedded cluster", "embedded cluster closed", "exiting");
        assertThat(traceMillis(result, "exiting") - traceMillis(result, "results printed"))
                .as("milliseconds from the results to the exit; stderr:\n%s", result.stderr())
                .isLessThanOrEqualTo(STOP_BOUND.toMillis());
    }

    /** The time the startup trace gives {@code phase}, in milliseconds since the JVM started. */
    private static long traceMillis(SluiceProcess.Result result, String phase) {
        return result.stderrLines().stream()
                .filter(l -> l.startsWith("startup-trace") && l.contains("ms  " + phase + " ("))
                .mapToLong(l -> Long.parseLong(l.replaceFirst("^startup-trace +(\\d+) ms .*$", "$1")))
                .findFirst().orElseThrow(() -> new AssertionError("no startup-trace line for " + phase + ":\n"
                        + result.stderr()));
    }

    @Test
    void unknownTable() throws Exception {
        assertUserError("unknown-table", "SELECT * FROM no_such_table", "no_such_table");
    }

    @Test
    void unknownColumn() throws Exception {
        assertUserError("unknown-column", createTables + "SELECT k, no_such_column FROM pq_t;", "no_such_column");
    }

    @Test
    void syntaxError() throws Exception {
        assertUserError("syntax", "SELEC k FROM pq_t", "line 1");
    }

    @Test
    void missingFile() throws Exception {
        Path missing = data.resolve("missing.csv");
        assertUserError("missing-file", "CREATE EXTERNAL TABLE gone STORED AS CSV LOCATION '" + missing + "';\n"
                + "SELECT * FROM gone;", missing.toString());
    }

    /** No -e, no -f and nothing on stdin (no terminal either): a usage error, before any cluster starts. */
    @Test
    void usageErrorsExitWithTwoBeforeStartingAnything() throws Exception {
        SluiceProcess.Result result = SluiceProcess.run(data, RUN_TIMEOUT, "sql", "--local=2");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.stdout()).isEmpty();
        assertThat(result.stderrLines()).anyMatch(l -> l.startsWith("error:") && l.contains("the script is empty")
                && l.contains("-e"));
    }

    /** A JIT mode bin/sluice does not know is refused by name before any JVM starts. */
    @Test
    void unknownJitModeIsRefusedBeforeTheJvmStarts() throws Exception {
        SluiceProcess.Result result;
        try (SluiceProcess p = SluiceProcess.start(data, "", java.util.Map.of("SLUICE_JIT", "fastest"),
                "sql", "--local=2", "-e", "SELECT 1")) {
            result = p.await(RUN_TIMEOUT);
        }
        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.stdout()).isEmpty();
        assertThat(result.stderr()).contains("error: SLUICE_JIT must be auto, quick, lean or full: fastest");
    }

    /**
     * {@code SLUICE_JIT=lean}'s options reach the JVM, and none of them prints on stdout (HotSpot
     * echoes each {@code -XX:CompileCommand} there unless {@code quiet} comes first), which a
     * script's result shares. Other tests run C1 only, which turns lean off.
     */
    @Test
    void leanJitOptionsReachTheJvmAndLeaveStdoutToTheResult() throws Exception {
        SluiceProcess.Result result;
        try (SluiceProcess p = SluiceProcess.start(data, "", java.util.Map.of("SLUICE_JIT", "lean",
                "SLUICE_JAVA_OPTS", "-Xmx512m -XX:+UseSerialGC"), "sql", "--local=1", "-e", "SELECT 1 AS x",
                "--format", "csv")) {
            result = p.await(RUN_TIMEOUT);
        }
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(result.stdout()).isEqualTo("x\n1\n");
        try (SluiceProcess p = SluiceProcess.start(data, "", java.util.Map.of("SLUICE_JAVA_OPTS",
                "-Xmx256m -XX:+PrintFlagsFinal"), "--version")) {
            result = p.await(RUN_TIMEOUT);
        }
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(result.stdout()).containsPattern("FreqInlineSize += 120 .*command line")
                .containsPattern("InlineSmallCode += 1200 .*command line")
                .containsPattern("Tier4InvocationThreshold += 50000 .*command line");
    }
}
