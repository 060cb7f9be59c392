package io.sluice.bench.tpch;

import io.sluice.api.LocalCluster;
import io.sluice.api.Session;
import io.sluice.bench.Medians;
import io.sluice.cluster.protocol.TaskMetrics;
import io.sluice.datasource.file.ReadWaits;
import io.sluice.datasource.file.StoreRequests;
import io.sluice.kernels.QueryResult;
import io.sluice.operators.memory.Bytes;
import io.sluice.tpch.Agreement;
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
        TpchOptions options;
        try {
            options = TpchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println(TpchOptions.USAGE);
            System.exit(2);
            return;
        }
        if (options.help) {
            System.out.println(TpchOptions.USAGE);
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
            data = options.writer.prepare(TpchData.generate(options.dataDirectory, options.scaleFactor), options.duckdbThreads);
        } catch (RuntimeException e) {
            // an unwritable or full data directory, or a peer writer not built, is the user's to fix: one line, no stack trace
            System.err.println("error: cannot generate TPC-H data under " + options.dataDirectory + ": " + firstLine(e)
                    + (e.getCause() != null ? " (" + firstLine(e.getCause()) + ")" : ""));
            System.exit(1);
            return;
        }
        System.out.printf(Locale.ROOT, "data ready in %.1f s: %s%n", (System.nanoTime() - started) / 1e9, data.directory());

        if (options.viaConnect) {
            System.exit(ConnectTpchBenchmark.run(options, data));
            return;
        }
        if (options.estimates) {
            boolean within = printEstimates(options, data);
            System.exit(within ? 0 : 1);
            return;
        }
        List<TpchResult> results = new ArrayList<>();
        // With --memory, each query runs on the default cluster and then on one whose workers have
        // that memory, so both meet the query at the same point of the JVM's warm-up.
        try (SessionHolder sessions = new SessionHolder(options, data, 0, options.location);
                SessionHolder limited = new SessionHolder(options, data, options.memory, options.location);
                SessionHolder local = new SessionHolder(options, data, 0, null)) {
            for (int query : options.queries) {
                if (options.versusLocal) {
                    // the local copy's warm-ups first, so that both copies' measured runs meet the query at
                    // the same point of the JVM's warm-up (else the first query compiles its code on the bucket's runs)
                    runSluice(local, options, query, options.warmups, 0);
                }
                TpchResult result = runSluice(sessions, options, query, options.warmups, options.runs);
                if (options.memory > 0) {
                    System.out.println("memory " + Bytes.format(options.memory) + ":");
                    result.limited = runSluice(limited, options, query, options.warmups, options.runs);
                }
                if (options.versusLocal) {
                    System.out.println("local copy:");
                    result.local = runSluice(local, options, query, 0, options.runs);
                }
                results.add(result);
            }
        }
        long peakRssKb = peakRssKb();
        if (options.compare) {
            try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
                prepareDuckDb(duck, data, options.duckdbThreads);
                for (TpchResult result : results) {
                    runDuckDb(duck, options, result);
                }
            }
        }
        if (spark != null) {
            Map<Integer, SparkPeer.Outcome> outcomes = spark.run(data, options.queries, options.runs, options.warmups, options.timeoutSeconds);
            for (TpchResult result : results) {
                compareSpark(result, outcomes.get(result.query));
            }
        }
        TpchReport.print(options, data.directory(), results, peakRssKb);
        boolean disagree = results.stream().anyMatch(r -> (r.agreement != null && !r.agreement.startsWith("yes"))
                || (r.limited != null && r.limited.agreement != null && !r.limited.agreement.startsWith("yes"))
                || (r.sparkComparedWithSluice && !r.sparkAgreement.startsWith("yes")));
        if (disagree) {
            System.exit(1);
        }
    }

    /** The session queries run in; replaced by a fresh one after a query is abandoned. */
    private static final class SessionHolder implements AutoCloseable {
        private final TpchOptions options;
        private final TpchData data;
        private final long workerMemory;
        private final String location;
        private Session session;

        /** {@code workerMemory} 0: the workers' default memory; {@code location} null: the files under --data. */
        SessionHolder(TpchOptions options, TpchData data, long workerMemory, String location) {
            this.options = options;
            this.data = data;
            this.workerMemory = workerMemory;
            this.location = location;
        }

        Session get() {
            if (session == null) {
                session = options.coordinator != null
                        ? Session.connect(options.coordinator.split(":")[0], Integer.parseInt(options.coordinator.split(":")[1]))
                        : Session.local(LocalCluster.Options.of(options.workers).withWorkerMemory(workerMemory));
                StringBuilder ddl = new StringBuilder();
                for (Map.Entry<String, Path> table : data.tables().entrySet()) {
                    String tableLocation = location != null ? location + "/" + table.getKey()
                            : table.getValue().toAbsolutePath().toString();
                    ddl.append("CREATE EXTERNAL TABLE ").append(table.getKey()).append(" STORED AS PARQUET LOCATION '")
                            .append(tableLocation).append("';\n");
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

    /** {@code query} run {@code warmups} times unmeasured, then {@code runs} times measured (none: a warm-up only). */
    private static TpchResult runSluice(SessionHolder sessions, TpchOptions options, int query, int warmups, int runs) {
        TpchResult result = new TpchResult(query);
        StringBuilder settings = new StringBuilder();
        options.settings.forEach(setting -> settings.append("SET ").append(setting).append(";\n"));
        String sql = settings + TpchQueries.text(query, options.scaleFactor);
        ExecutorService runner = Executors.newSingleThreadExecutor(r -> {
            Thread thread = new Thread(r, "tpch-q" + query);
            thread.setDaemon(true);
            return thread;
        });
        try {
            double[] times = new double[runs];
            TaskMetrics measured = TaskMetrics.ZERO;
            Map<String, Long> requestsBefore = StoreRequests.snapshot();
            long waitsBefore = ReadWaits.nanos();
            for (int run = -warmups; run < runs; run++) {
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
                result.requests = perRun(StoreRequests.since(requestsBefore, StoreRequests.snapshot()),
                        Math.max(1, warmups + runs));
                result.readWaitMs = (ReadWaits.nanos() - waitsBefore) / 1e6 / Math.max(1, warmups + runs);
                result.sluiceMedianMs = runs == 0 ? Double.NaN : Medians.sortInPlace(times);
                if (options.coordinator == null) {
                    result.fetchWaitShare = measured.fetchWaitShare();
                    result.spilledBytes = measured.spilledBytes() / Math.max(1, runs);
                    result.peakTaskMemory = measured.peakMemory();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            result.error = "interrupted";
        } finally {
            runner.shutdownNow();
        }
        if (runs == 0 && result.error == null) {
            return result;
        }
        System.out.printf(Locale.ROOT, "q%-3d sluice %s, read_wait %.0f ms%s%s%n", query,
                result.error != null ? "error: " + result.error : String.format(Locale.ROOT, "%.0f ms, %d rows", result.sluiceMedianMs, result.rows),
                result.readWaitMs,
                result.spilledBytes > 0 ? ", spilled " + Bytes.format(result.spilledBytes) + " per run" : "",
                result.requests == null ? "" : ", requests per run " + result.requests);
        return result;
    }

    /** Requests by kind divided by the runs, as "GET=12 HEAD=0 LIST=2"; null when there were none. */
    private static String perRun(Map<String, Long> requests, int runs) {
        if (requests.isEmpty()) {
            return null;
        }
        StringBuilder out = new StringBuilder();
        requests.forEach((kind, n) -> out.append(out.isEmpty() ? "" : " ").append(kind).append('=')
                .append(Math.round((double) n / runs)));
        return out.toString();
    }

    /**
     * {@code --estimates}: each query once under EXPLAIN ANALYZE, and a table of every join's
     * estimated rows, actual rows and error ({@link JoinEstimates}), joins beyond
     * {@link #ESTIMATE_LIMIT} times off marked; true when none is.
     */
    private static boolean printEstimates(TpchOptions options, TpchData data) throws InterruptedException, java.io.IOException {
        StringBuilder settings = new StringBuilder();
        options.settings.forEach(setting -> settings.append("SET ").append(setting).append(";\n"));
        System.out.println("| query | join | estimated | actual | error |");
        System.out.println("|---|---|---:|---:|---|");
        int joins = 0;
        List<String> beyond = new ArrayList<>();
        try (SessionHolder sessions = new SessionHolder(options, data, 0, options.location)) {
            for (int query : options.queries) {
                String sql = settings + "EXPLAIN ANALYZE " + TpchQueries.text(query, options.scaleFactor);
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

    public static void prepareDuckDb(Connection duck, TpchData data, int threads) throws SQLException {
        try (Statement s = duck.createStatement()) {
            s.execute("SET threads = " + threads);
            for (Map.Entry<String, Path> table : data.tables().entrySet()) {
                s.execute("CREATE VIEW " + table.getKey() + " AS SELECT * FROM read_parquet('"
                        + table.getValue().toAbsolutePath() + "/*.parquet')");
            }
        }
    }

    private static void runDuckDb(Connection duck, TpchOptions options, TpchResult result) {
        String sql = TpchQueries.forPeer(TpchQueries.text(result.query, options.scaleFactor));
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
        result.duckdbMedianMs = Medians.sortInPlace(times);
        result.duckdbAnswer = expected;
        result.agreement = result.answer == null ? "-" : Agreement.of(result.answer, expected, sql);
        if (result.limited != null) {
            result.limited.agreement = result.limited.answer == null ? "-" : Agreement.of(result.limited.answer, expected, sql);
        }
    }

    /** Spark's answer against Sluice's, or against DuckDB's when Sluice has none. */
    private static void compareSpark(TpchResult result, SparkPeer.Outcome spark) {
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

    public static List<List<Object>> readAll(ResultSet rs) throws SQLException {
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
}
