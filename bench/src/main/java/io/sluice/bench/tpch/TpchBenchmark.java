package io.sluice.bench.tpch;

import io.sluice.api.LocalCluster;
import io.sluice.api.Session;
import io.sluice.cluster.protocol.TaskMetrics;
import io.sluice.kernels.QueryResult;
import io.sluice.tpch.Answers;
import io.sluice.tpch.JoinEstimates;
import io.sluice.tpch.TpchData;
import io.sluice.tpch.TpchQueries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code bin/sluice tpch}: the TPC-H queries in the specification's text over Parquet files that
 * are generated once and cached, on an embedded cluster (a coordinator and two workers, one JVM)
 * or on a running cluster, with each query's median time and row count. With {@code --compare},
 * DuckDB (JDBC, {@code threads} as given) runs the same text on the same files in the same run,
 * and the table gets DuckDB's median, the ratio, and whether the answers agree. With {@code --spark},
 * Apache Spark 4.2 in {@code local[2]} runs them too, in a separate JVM (see {@link SparkPeer}), and
 * the table gets Spark's median, the ratio, and whether Spark's answer agrees with Sluice's (with
 * DuckDB's where Sluice has none).
 *
 * <p>Caveats: Sluice runs first and the peers after, so the peak RSS printed (the JVM's high-water
 * mark, read before DuckDB starts) is the embedded cluster's alone. A query over the time limit is
 * abandoned: its session is closed and a fresh cluster serves the next query.
 */
public final class TpchBenchmark {
    private TpchBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println(Options.USAGE);
            System.exit(2);
            return;
        }
        if (options.help) {
            System.out.println(Options.USAGE);
            return;
        }
        SparkPeer spark = null;
        if (options.spark) {
            try {
                spark = SparkPeer.locate(SparkPeer.repositoryRoot());
            } catch (IllegalStateException e) {
                System.err.println("error: " + e.getMessage());
                System.exit(2);
                return;
            }
        }
        System.out.printf(Locale.ROOT, "generating or reusing TPC-H sf %s under %s%n", options.scaleFactor, options.dataDirectory);
        long started = System.nanoTime();
        TpchData data;
        try {
            data = TpchData.generate(options.dataDirectory, options.scaleFactor);
        } catch (RuntimeException e) {
            // an unwritable or full data directory is the user's to fix: one line, no stack trace
            System.err.println("error: cannot generate TPC-H data under " + options.dataDirectory + ": " + firstLine(e)
                    + (e.getCause() != null ? " (" + firstLine(e.getCause()) + ")" : ""));
            System.exit(1);
            return;
        }
        System.out.printf(Locale.ROOT, "data ready in %.1f s: %s%n", (System.nanoTime() - started) / 1e9, data.directory());

        if (options.estimates) {
            boolean within = printEstimates(options, data);
            System.exit(within ? 0 : 1);
            return;
        }
        List<Result> results = new ArrayList<>();
        // With --memory, each query runs on the default cluster and then on one whose workers have
        // that memory, so both meet the query at the same point of the JVM's warm-up.
        try (SessionHolder sessions = new SessionHolder(options, data, 0);
                SessionHolder limited = new SessionHolder(options, data, options.memory)) {
            for (int query : options.queries) {
                Result result = runSluice(sessions, options, query);
                if (options.memory > 0) {
                    System.out.println("memory " + io.sluice.operators.memory.Bytes.format(options.memory) + ":");
                    result.limited = runSluice(limited, options, query);
                }
                results.add(result);
            }
        }
        long peakRssKb = peakRssKb();
        if (options.compare) {
            try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
                prepareDuckDb(duck, data, options.duckdbThreads);
                for (Result result : results) {
                    runDuckDb(duck, options, result);
                }
            }
        }
        if (spark != null) {
            Map<Integer, SparkPeer.Outcome> outcomes = spark.run(data, options.queries, options.runs, options.warmups, options.timeoutSeconds);
            for (Result result : results) {
                compareSpark(result, outcomes.get(result.query));
            }
        }
        print(options, results, peakRssKb);
        boolean disagree = results.stream().anyMatch(r -> (r.agreement != null && !r.agreement.startsWith("yes"))
                || (r.limited != null && r.limited.agreement != null && !r.limited.agreement.startsWith("yes"))
                || (r.sparkComparedWithSluice && !r.sparkAgreement.startsWith("yes")));
        if (disagree) {
            System.exit(1);
        }
    }

    /** One query's outcome on each engine. */
    private static final class Result {
        final int query;
        double sluiceMedianMs = Double.NaN;
        /** Shuffle fetch wait over task time in the measured runs (embedded cluster only; NaN otherwise). */
        double fetchWaitShare = Double.NaN;
        long rows = -1;
        String error;
        List<List<Object>> answer;
        double duckdbMedianMs = Double.NaN;
        List<List<Object>> duckdbAnswer;
        String agreement;
        double sparkMedianMs = Double.NaN;
        String sparkAgreement;
        boolean sparkComparedWithSluice;
        /** The same query on workers of --memory (null without it); its agreement is with DuckDB. */
        Result limited;
        /** Bytes the measured runs spilled and the largest memory one task held (embedded cluster only). */
        long spilledBytes = -1;
        long peakTaskMemory = -1;

        Result(int query) {
            this.query = query;
        }
    }

    /** The session queries run in; replaced by a fresh one after a query is abandoned. */
    private static final class SessionHolder implements AutoCloseable {
        private final Options options;
        private final TpchData data;
        private final long workerMemory;
        private Session session;

        /** {@code workerMemory} 0: the workers' default memory. */
        SessionHolder(Options options, TpchData data, long workerMemory) {
            this.options = options;
            this.data = data;
            this.workerMemory = workerMemory;
        }

        Session get() {
            if (session == null) {
                session = options.coordinator != null
                        ? Session.connect(options.coordinator.split(":")[0], Integer.parseInt(options.coordinator.split(":")[1]))
                        : Session.local(LocalCluster.Options.of(options.workers).withWorkerMemory(workerMemory));
                StringBuilder ddl = new StringBuilder();
                for (Map.Entry<String, Path> table : data.tables().entrySet()) {
                    ddl.append("CREATE EXTERNAL TABLE ").append(table.getKey()).append(" STORED AS PARQUET LOCATION '")
                            .append(table.getValue().toAbsolutePath()).append("';\n");
                }
                session.sql(ddl.toString());
            }
            return session;
        }

        void abandon() {
            close();
        }

        @Override
        public void close() {
            if (session != null) {
                try {
                    session.close();
                } finally {
                    session = null;
                }
            }
        }
    }

    private static Result runSluice(SessionHolder sessions, Options options, int query) {
        Result result = new Result(query);
        StringBuilder settings = new StringBuilder();
        options.settings.forEach(setting -> settings.append("SET ").append(setting).append(";\n"));
        String sql = settings + TpchQueries.text(query);
        ExecutorService runner = Executors.newSingleThreadExecutor(r -> {
            Thread thread = new Thread(r, "tpch-q" + query);
            thread.setDaemon(true);
            return thread;
        });
        try {
            double[] times = new double[options.runs];
            TaskMetrics measured = TaskMetrics.ZERO;
            for (int run = -options.warmups; run < options.runs; run++) {
                Session session = sessions.get();
                Set<String> jobsBefore = jobMetrics(session).keySet();
                long start = System.nanoTime();
                Future<QueryResult> future = runner.submit(() -> session.sql(sql).collect());
                QueryResult answer;
                try {
                    answer = future.get(options.timeoutSeconds, TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    future.cancel(true);
                    sessions.abandon();
                    result.error = "over " + options.timeoutSeconds + " s";
                    break;
                } catch (ExecutionException e) {
                    result.error = firstLine(e.getCause());
                    break;
                }
                double ms = (System.nanoTime() - start) / 1e6;
                if (run >= 0) {
                    times[run] = ms;
                    for (Map.Entry<String, TaskMetrics> job : jobMetrics(session).entrySet()) {
                        if (!jobsBefore.contains(job.getKey())) {
                            measured = measured.plus(job.getValue());
                        }
                    }
                }
                result.rows = answer.rows().size();
                result.answer = Answers.normalize(answer.rows());
            }
            if (result.error == null) {
                Arrays.sort(times);
                result.sluiceMedianMs = times[times.length / 2];
                if (options.coordinator == null) {
                    result.fetchWaitShare = measured.fetchWaitShare();
                    result.spilledBytes = measured.spilledBytes() / options.runs;
                    result.peakTaskMemory = measured.peakMemory();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            result.error = "interrupted";
        } finally {
            runner.shutdownNow();
        }
        System.out.printf(Locale.ROOT, "q%-3d sluice %s%n", query,
                result.error != null ? "error: " + result.error : String.format(Locale.ROOT, "%.0f ms, %d rows", result.sluiceMedianMs, result.rows));
        return result;
    }

    /**
     * {@code --estimates}: each query once under EXPLAIN ANALYZE, and a table of every join's
     * estimated rows, actual rows and error ({@link JoinEstimates}), joins beyond
     * {@link #ESTIMATE_LIMIT} times off marked; true when none is.
     */
    private static boolean printEstimates(Options options, TpchData data) throws InterruptedException, java.io.IOException {
        StringBuilder settings = new StringBuilder();
        options.settings.forEach(setting -> settings.append("SET ").append(setting).append(";\n"));
        System.out.println("| query | join | estimated | actual | error |");
        System.out.println("|---|---|---:|---:|---|");
        int joins = 0;
        List<String> beyond = new ArrayList<>();
        try (SessionHolder sessions = new SessionHolder(options, data, 0)) {
            for (int query : options.queries) {
                String sql = settings + "EXPLAIN ANALYZE " + TpchQueries.text(query);
                ExecutorService runner = Executors.newSingleThreadExecutor();
                try {
                    Session session = sessions.get();
                    Future<QueryResult> future = runner.submit(() -> session.sql(sql).collect());
                    String text;
                    try {
                        text = future.get(options.timeoutSeconds, TimeUnit.SECONDS).rows().stream()
                                .map(r -> (String) r.get(0)).collect(java.util.stream.Collectors.joining("\n"));
                    } catch (TimeoutException e) {
                        future.cancel(true);
                        sessions.abandon();
                        System.out.printf(Locale.ROOT, "| q%d | over %d s | | | |%n", query, options.timeoutSeconds);
                        beyond.add("q" + query + " (timed out)");
                        continue;
                    } catch (ExecutionException e) {
                        System.out.printf(Locale.ROOT, "| q%d | error: %s | | | |%n", query, firstLine(e.getCause()));
                        beyond.add("q" + query + " (failed)");
                        continue;
                    }
                    if (options.plansDirectory != null) {
                        Files.createDirectories(options.plansDirectory);
                        Files.writeString(options.plansDirectory.resolve("q" + query + ".txt"), text + "\n");
                    }
                    List<JoinEstimates.Join> found = JoinEstimates.parse(text);
                    for (int j = 0; j < found.size(); j++) {
                        JoinEstimates.Join join = found.get(j);
                        joins++;
                        boolean off = join.error() > ESTIMATE_LIMIT;
                        if (off) {
                            beyond.add("q" + query + " join " + (j + 1));
                        }
                        System.out.printf(Locale.ROOT, "| q%d | %d: `%s` | %d | %d | %s%s |%n", query, j + 1,
                                abbreviate(join.operator(), 160), join.estimated(), join.actual(), join.describeError(),
                                off ? " **>" + (int) ESTIMATE_LIMIT + "x**" : "");
                    }
                } finally {
                    runner.shutdownNow();
                }
            }
        }
        System.out.printf(Locale.ROOT, "%d joins, %d beyond %dx%s%n", joins, beyond.size(), (int) ESTIMATE_LIMIT,
                beyond.isEmpty() ? "" : ": " + String.join(", ", beyond));
        return beyond.isEmpty();
    }

    /** How far (either way) an estimate may be from the actual rows before {@code --estimates} marks it. */
    static final double ESTIMATE_LIMIT = 10;

    private static String abbreviate(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 3) + "...";
    }

    /** The coordinator's per-job task metrics, when the session is an embedded cluster; empty otherwise. */
    private static Map<String, TaskMetrics> jobMetrics(Session session) {
        try {
            return session.localCluster().coordinator().jobMetrics();
        } catch (IllegalStateException notLocal) {
            return Map.of();
        }
    }

    static void prepareDuckDb(Connection duck, TpchData data, int threads) throws SQLException {
        try (Statement s = duck.createStatement()) {
            s.execute("SET threads = " + threads);
            for (Map.Entry<String, Path> table : data.tables().entrySet()) {
                s.execute("CREATE VIEW " + table.getKey() + " AS SELECT * FROM read_parquet('"
                        + table.getValue().toAbsolutePath() + "/*.parquet')");
            }
        }
    }

    private static void runDuckDb(Connection duck, Options options, Result result) {
        String sql = TpchQueries.forPeer(TpchQueries.text(result.query));
        double[] times = new double[options.runs];
        List<List<Object>> expected = null;
        try {
            for (int run = -options.warmups; run < options.runs; run++) {
                long start = System.nanoTime();
                // a new Statement per query: DuckDB closes one after a failure
                try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                    expected = readAll(rs);
                }
                if (run >= 0) {
                    times[run] = (System.nanoTime() - start) / 1e6;
                }
            }
        } catch (SQLException e) {
            result.agreement = "duckdb error: " + firstLine(e);
            return;
        }
        Arrays.sort(times);
        result.duckdbMedianMs = times[times.length / 2];
        result.duckdbAnswer = expected;
        result.agreement = result.answer == null ? "-" : Agreement.of(result.answer, expected, sql);
        if (result.limited != null) {
            result.limited.agreement = result.limited.answer == null ? "-" : Agreement.of(result.limited.answer, expected, sql);
        }
    }

    /** Spark's answer against Sluice's, or against DuckDB's when Sluice has none. */
    private static void compareSpark(Result result, SparkPeer.Outcome spark) {
        if (spark == null || spark.error() != null) {
            result.sparkAgreement = "spark error: " + (spark == null ? "not run" : spark.error());
            return;
        }
        result.sparkMedianMs = spark.medianMs();
        String sql = TpchQueries.text(result.query);
        if (result.answer != null) {
            result.sparkComparedWithSluice = true;
            result.sparkAgreement = Agreement.of(result.answer, spark.answer(), sql);
        } else if (result.duckdbAnswer != null) {
            result.sparkAgreement = "duckdb " + Agreement.of(spark.answer(), result.duckdbAnswer, sql);
        } else {
            result.sparkAgreement = "-";
        }
    }

    private static List<List<Object>> readAll(ResultSet rs) throws SQLException {
        int columns = rs.getMetaData().getColumnCount();
        List<List<Object>> rows = new ArrayList<>();
        while (rs.next()) {
            List<Object> row = new ArrayList<>(columns);
            for (int i = 1; i <= columns; i++) {
                row.add(Answers.normalize(rs.getObject(i)));
            }
            rows.add(row);
        }
        return rows;
    }

    private static void print(Options options, List<Result> results, long peakRssKb) {
        System.out.println();
        System.out.printf(Locale.ROOT, "TPC-H sf %s, %s; median of %d after %d warm-up%s%s%n", options.scaleFactor,
                options.coordinator != null ? "cluster at " + options.coordinator : "embedded cluster, " + options.workers + " workers",
                options.runs, options.warmups, options.compare ? "; DuckDB threads=" + options.duckdbThreads : "",
                options.spark ? "; Spark 4.2 local[2]" : "");
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-5s %10s %8s %10s", "query", "sluice_ms", "rows",
                "fetch_wait"));
        if (options.memory > 0) {
            header.append(String.format(Locale.ROOT, " %10s %9s %10s %10s", "memory_ms", "vs_unlim", "spilled", "task_peak"));
        }
        if (options.compare) {
            header.append(String.format(Locale.ROOT, " %10s %9s", "duckdb_ms", "vs_duckdb"));
        }
        if (options.spark) {
            header.append(String.format(Locale.ROOT, " %10s %9s", "spark_ms", "vs_spark"));
        }
        if (options.compare) {
            header.append(String.format(Locale.ROOT, "  %-12s", "duckdb_agree"));
        }
        if (options.compare && options.memory > 0) {
            header.append(String.format(Locale.ROOT, "  %-12s", "memory_agree"));
        }
        if (options.spark) {
            header.append(String.format(Locale.ROOT, "  %-12s", "spark_agree"));
        }
        System.out.println(header.toString().stripTrailing());
        GeometricMean versusDuckDb = new GeometricMean();
        GeometricMean versusSpark = new GeometricMean();
        GeometricMean versusUnlimited = new GeometricMean();
        List<String> notes = new ArrayList<>();
        for (Result r : results) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "q%-4d %10s %8s %10s", r.query,
                    r.error != null ? "error" : String.format(Locale.ROOT, "%.0f", r.sluiceMedianMs),
                    r.error != null ? "-" : Long.toString(r.rows),
                    Double.isNaN(r.fetchWaitShare) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * r.fetchWaitShare)));
            if (r.error != null) {
                notes.add(String.format(Locale.ROOT, "q%d sluice error: %s", r.query, r.error));
            }
            if (options.memory > 0) {
                Result m = r.limited;
                boolean both = m != null && m.error == null && r.error == null;
                if (both) {
                    versusUnlimited.add(m.sluiceMedianMs / Math.max(r.sluiceMedianMs, 0.001));
                }
                line.append(String.format(Locale.ROOT, " %10s %9s %10s %10s",
                        m == null || m.error != null ? "error" : String.format(Locale.ROOT, "%.0f", m.sluiceMedianMs),
                        both ? String.format(Locale.ROOT, "%.2fx", m.sluiceMedianMs / Math.max(r.sluiceMedianMs, 0.001)) : "-",
                        m == null || m.spilledBytes < 0 ? "-" : io.sluice.operators.memory.Bytes.format(m.spilledBytes).replace(" ", ""),
                        m == null || m.peakTaskMemory < 0 ? "-" : io.sluice.operators.memory.Bytes.format(m.peakTaskMemory).replace(" ", "")));
                if (m != null && m.error != null) {
                    notes.add(String.format(Locale.ROOT, "q%d sluice error with --memory: %s", r.query, m.error));
                }
            }
            if (options.compare) {
                line.append(peerColumns(r, r.duckdbMedianMs, versusDuckDb));
            }
            if (options.spark) {
                line.append(peerColumns(r, r.sparkMedianMs, versusSpark));
            }
            if (options.compare) {
                line.append(String.format(Locale.ROOT, "  %-12s", verdict(r.query, "duckdb", r.agreement, notes)));
            }
            if (options.compare && options.memory > 0) {
                line.append(String.format(Locale.ROOT, "  %-12s", r.limited == null ? "-"
                        : verdict(r.query, "duckdb (--memory)", r.limited.agreement, notes)));
            }
            if (options.spark) {
                line.append(String.format(Locale.ROOT, "  %-12s", verdict(r.query, "spark", r.sparkAgreement, notes)));
            }
            System.out.println(line.toString().stripTrailing());
        }
        long ran = results.stream().filter(r -> r.error == null).count();
        System.out.printf(Locale.ROOT, "%d of %d queries ran", ran, results.size());
        if (versusDuckDb.count > 0) {
            System.out.printf(Locale.ROOT, "; geometric mean ratio sluice/duckdb %.2fx over %d", versusDuckDb.value(), versusDuckDb.count);
        }
        if (versusSpark.count > 0) {
            System.out.printf(Locale.ROOT, "; sluice/spark %.2fx over %d", versusSpark.value(), versusSpark.count);
        }
        if (versusUnlimited.count > 0) {
            System.out.printf(Locale.ROOT, "; memory %s / default memory %.2fx over %d",
                    io.sluice.operators.memory.Bytes.format(options.memory), versusUnlimited.value(), versusUnlimited.count);
        }
        System.out.println();
        if (peakRssKb > 0 && options.coordinator == null) {
            System.out.printf(Locale.ROOT, "peak RSS of this JVM while Sluice ran: %d MB%n", peakRssKb / 1024);
        }
        if (results.stream().anyMatch(r -> "yes~".equals(r.agreement) || (r.sparkAgreement != null && r.sparkAgreement.endsWith("yes~")))) {
            System.out.printf(Locale.ROOT, "yes~: equal but for numbers within %s absolute + %s relative (decimal against double averages)%n",
                    Agreement.ABSOLUTE, Agreement.RELATIVE);
        }
        if (!notes.isEmpty()) {
            System.out.println("notes:");
            notes.forEach(note -> System.out.println("  " + note));
        }
    }

    /** A peer's median and Sluice's time over it ("-" where either is missing). */
    private static String peerColumns(Result r, double peerMs, GeometricMean mean) {
        String ratio = "-";
        if (r.error == null && !Double.isNaN(peerMs)) {
            double value = r.sluiceMedianMs / Math.max(peerMs, 0.001);
            ratio = String.format(Locale.ROOT, "%.2fx", value);
            mean.add(value);
        }
        return String.format(Locale.ROOT, " %10s %9s", Double.isNaN(peerMs) ? "-" : String.format(Locale.ROOT, "%.0f", peerMs), ratio);
    }

    /** The short form of an agreement for the table; a detailed one ("NO: ...", "... error: ...") also becomes a note. */
    private static String verdict(int query, String peer, String agreement, List<String> notes) {
        if (agreement == null) {
            return "-";
        }
        int colon = agreement.indexOf(':');
        if (colon < 0) {
            return agreement;
        }
        notes.add(String.format(Locale.ROOT, "q%d %s: %s", query, peer, agreement));
        return agreement.substring(0, colon);
    }

    /** Geometric mean of ratios. */
    private static final class GeometricMean {
        private double logSum;
        private int count;

        void add(double ratio) {
            logSum += Math.log(ratio);
            count++;
        }

        double value() {
            return Math.exp(logSum / count);
        }
    }

    /** VmHWM from /proc (Linux); -1 elsewhere. */
    private static long peakRssKb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (Exception e) {
            return -1;
        }
        return -1;
    }

    private static String firstLine(Throwable t) {
        String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    /** Command-line options. */
    static final class Options {
        static final String USAGE = """
                usage: sluice tpch [--sf 1] [--query N[,N...]] [--compare] [--runs 3] [--warmups 1]
                                   [--workers 2] [--coordinator HOST:HTTP_PORT] [--data DIR]
                                   [--timeout SECONDS] [--duckdb-threads 2] [--spark] [--memory SIZE]
                                   [--set NAME=VALUE]... [--estimates [--plans DIR]]
                  --sf           scale factor (data generated once, cached under --data)
                  --query        queries to run (default: all 22)
                  --compare      also run DuckDB on the same files; print ratios and whether answers agree
                  --spark        also run Apache Spark 4.2 local[2] (separate JVM) on the same files; needs
                                 'mvn -f bench/spark-peer/pom.xml -DskipTests package' once
                  --coordinator  run on a running cluster instead of an embedded one
                  --memory       also run each query on a second embedded cluster whose workers have SIZE
                                 (sluice.worker.memory, e.g. 64m); print its time, the ratio to the
                                 default-memory run, bytes spilled per run, the most one task held,
                                 and whether its answers agree (with --compare)
                  --set          a Sluice setting for every query (repeatable), e.g.
                                 --set sluice.join.runtime-filter-threshold=-1
                  --estimates    instead of timing: run each query once under EXPLAIN ANALYZE and print
                                 every join's estimated and actual rows, marking those more than
                                 10x off (exit status 1 if any is)
                  --plans        with --estimates: also write each query's EXPLAIN ANALYZE to DIR/qN.txt
                  --data         data directory (default: $SLUICE_TPCH_DATA or ~/.sluice/tpch)""";

        double scaleFactor = 1;
        int[] queries = TpchQueries.all();
        boolean compare;
        boolean spark;
        int runs = 3;
        int warmups = 1;
        int workers = 2;
        String coordinator;
        Path dataDirectory = defaultDataDirectory();
        long timeoutSeconds = 300;
        int duckdbThreads = 2;
        List<String> settings = new ArrayList<>();
        long memory;
        boolean estimates;
        Path plansDirectory;
        boolean help;

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                switch (arg) {
                    case "--sf" -> o.scaleFactor = Double.parseDouble(value(args, ++i, arg));
                    case "--query" -> o.queries = Arrays.stream(value(args, ++i, arg).split(","))
                            .map(String::trim).map(q -> q.startsWith("q") ? q.substring(1) : q).mapToInt(Integer::parseInt).toArray();
                    case "--compare" -> o.compare = true;
                    case "--spark" -> o.spark = true;
                    case "--estimates" -> o.estimates = true;
                    case "--plans" -> o.plansDirectory = Path.of(value(args, ++i, arg));
                    case "--runs" -> o.runs = positive(value(args, ++i, arg), arg);
                    case "--warmups" -> o.warmups = Integer.parseInt(value(args, ++i, arg));
                    case "--workers" -> o.workers = positive(value(args, ++i, arg), arg);
                    case "--coordinator" -> o.coordinator = value(args, ++i, arg);
                    case "--data" -> o.dataDirectory = Path.of(value(args, ++i, arg));
                    case "--timeout" -> o.timeoutSeconds = positive(value(args, ++i, arg), arg);
                    case "--duckdb-threads" -> o.duckdbThreads = positive(value(args, ++i, arg), arg);
                    case "--set" -> {
                        String setting = value(args, ++i, arg);
                        if (!setting.matches("[A-Za-z0-9_.\\-]+=[^;]+")) {
                            throw new IllegalArgumentException("--set takes NAME=VALUE, not '" + setting + "'");
                        }
                        o.settings.add(setting);
                    }
                    case "--memory" -> o.memory = memorySize(value(args, ++i, arg));
                    case "-h", "--help" -> o.help = true;
                    default -> throw new IllegalArgumentException("unknown option '" + arg + "'");
                }
            }
            for (int q : o.queries) {
                if (q < 1 || q > TpchQueries.COUNT) {
                    throw new IllegalArgumentException("TPC-H has queries 1 to 22, not " + q);
                }
            }
            if (o.memory > 0 && o.coordinator != null) {
                throw new IllegalArgumentException("--memory runs a second embedded cluster; it does not go with --coordinator");
            }
            if (o.coordinator != null && !o.coordinator.matches("[^:]+:\\d+")) {
                throw new IllegalArgumentException("--coordinator takes HOST:HTTP_PORT, not '" + o.coordinator + "'");
            }
            return o;
        }

        private static String value(String[] args, int i, String option) {
            if (i >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args[i];
        }

        private static long memorySize(String text) {
            try {
                return io.sluice.operators.memory.Bytes.parse("--memory", text);
            } catch (io.sluice.common.SluiceException e) {
                throw new IllegalArgumentException(e.getMessage());
            }
        }

        private static int positive(String text, String option) {
            int value = Integer.parseInt(text);
            if (value < 1) {
                throw new IllegalArgumentException(option + " must be at least 1, not " + text);
            }
            return value;
        }

        private static Path defaultDataDirectory() {
            String configured = System.getenv("SLUICE_TPCH_DATA");
            return configured != null && !configured.isBlank()
                    ? Path.of(configured)
                    : Path.of(System.getProperty("user.home"), ".sluice", "tpch");
        }
    }
}
