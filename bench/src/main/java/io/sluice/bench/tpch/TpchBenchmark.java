package io.sluice.bench.tpch;

import io.sluice.api.LocalCluster;
import io.sluice.api.Session;
import io.sluice.cluster.protocol.TaskMetrics;
import io.sluice.plan.exec.QueryResult;
import io.sluice.tpch.Answers;
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
 * and the table gets DuckDB's median, the ratio, and whether the answers agree.
 *
 * <p>Caveats: Sluice runs first and DuckDB after, so the peak RSS printed (the JVM's high-water
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
        System.out.printf(Locale.ROOT, "generating or reusing TPC-H sf %s under %s%n", options.scaleFactor, options.dataDirectory);
        long started = System.nanoTime();
        TpchData data = TpchData.generate(options.dataDirectory, options.scaleFactor);
        System.out.printf(Locale.ROOT, "data ready in %.1f s: %s%n", (System.nanoTime() - started) / 1e9, data.directory());

        List<Result> results = new ArrayList<>();
        SessionHolder sessions = new SessionHolder(options, data);
        try {
            for (int query : options.queries) {
                results.add(runSluice(sessions, options, query));
            }
        } finally {
            sessions.close();
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
        print(options, results, peakRssKb);
        boolean disagree = results.stream().anyMatch(r -> r.agreement != null && !r.agreement.startsWith("yes"));
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
        String agreement;

        Result(int query) {
            this.query = query;
        }
    }

    /** The session queries run in; replaced by a fresh one after a query is abandoned. */
    private static final class SessionHolder implements AutoCloseable {
        private final Options options;
        private final TpchData data;
        private Session session;

        SessionHolder(Options options, TpchData data) {
            this.options = options;
            this.data = data;
        }

        Session get() {
            if (session == null) {
                session = options.coordinator != null
                        ? Session.connect(options.coordinator.split(":")[0], Integer.parseInt(options.coordinator.split(":")[1]))
                        : Session.local(LocalCluster.Options.of(options.workers));
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
        String sql = TpchQueries.text(query);
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
                Future<QueryResult> future = runner.submit(() -> session.sql(sql));
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

    /** The coordinator's per-job task metrics, when the session is an embedded cluster; empty otherwise. */
    private static Map<String, TaskMetrics> jobMetrics(Session session) {
        try {
            return session.localCluster().coordinator().jobMetrics();
        } catch (IllegalStateException notLocal) {
            return Map.of();
        }
    }

    private static void prepareDuckDb(Connection duck, TpchData data, int threads) throws SQLException {
        try (Statement s = duck.createStatement()) {
            s.execute("SET threads = " + threads);
            for (Map.Entry<String, Path> table : data.tables().entrySet()) {
                s.execute("CREATE VIEW " + table.getKey() + " AS SELECT * FROM read_parquet('"
                        + table.getValue().toAbsolutePath() + "/*.parquet')");
            }
        }
    }

    private static void runDuckDb(Connection duck, Options options, Result result) {
        String sql = TpchQueries.text(result.query);
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
        if (result.answer == null) {
            result.agreement = "-";
        } else if (result.answer.equals(expected)) {
            result.agreement = "yes";
        } else if (Answers.sorted(result.answer).equals(Answers.sorted(expected))) {
            result.agreement = sql.toLowerCase(Locale.ROOT).contains("order by") ? "NO: order differs" : "yes";
        } else {
            result.agreement = "NO: " + result.answer.size() + " vs " + expected.size() + " rows"
                    + (result.answer.isEmpty() || expected.isEmpty() ? "" : ", first " + result.answer.get(0) + " vs " + expected.get(0));
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
        System.out.printf(Locale.ROOT, "TPC-H sf %s, %s; median of %d after %d warm-up%s%n", options.scaleFactor,
                options.coordinator != null ? "cluster at " + options.coordinator : "embedded cluster, " + options.workers + " workers",
                options.runs, options.warmups, options.compare ? "; DuckDB threads=" + options.duckdbThreads : "");
        if (options.compare) {
            System.out.printf(Locale.ROOT, "%-5s %10s %8s %10s %10s %8s  %s%n", "query", "sluice_ms", "rows", "fetch_wait",
                    "duckdb_ms", "ratio", "agree");
        } else {
            System.out.printf(Locale.ROOT, "%-5s %10s %8s %10s%n", "query", "sluice_ms", "rows", "fetch_wait");
        }
        double logRatioSum = 0;
        int ratios = 0;
        for (Result r : results) {
            String sluice = r.error != null ? "error" : String.format(Locale.ROOT, "%.0f", r.sluiceMedianMs);
            String rows = r.error != null ? "-" : Long.toString(r.rows);
            String wait = Double.isNaN(r.fetchWaitShare) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * r.fetchWaitShare);
            if (options.compare) {
                String duck = Double.isNaN(r.duckdbMedianMs) ? "-" : String.format(Locale.ROOT, "%.0f", r.duckdbMedianMs);
                String ratio = "-";
                if (r.error == null && !Double.isNaN(r.duckdbMedianMs)) {
                    double value = r.sluiceMedianMs / Math.max(r.duckdbMedianMs, 0.001);
                    ratio = String.format(Locale.ROOT, "%.1fx", value);
                    logRatioSum += Math.log(value);
                    ratios++;
                }
                String agree = r.error != null ? "error: " + r.error : r.agreement;
                System.out.printf(Locale.ROOT, "q%-4d %10s %8s %10s %10s %8s  %s%n", r.query, sluice, rows, wait, duck, ratio,
                        agree);
            } else {
                System.out.printf(Locale.ROOT, "q%-4d %10s %8s %10s%s%n", r.query, sluice, rows, wait,
                        r.error != null ? "  " + r.error : "");
            }
        }
        long ran = results.stream().filter(r -> r.error == null).count();
        System.out.printf(Locale.ROOT, "%d of %d queries ran", ran, results.size());
        if (ratios > 0) {
            System.out.printf(Locale.ROOT, "; geometric mean ratio sluice/duckdb %.1fx", Math.exp(logRatioSum / ratios));
        }
        System.out.println();
        if (peakRssKb > 0 && options.coordinator == null) {
            System.out.printf(Locale.ROOT, "peak RSS of this JVM while Sluice ran: %d MB%n", peakRssKb / 1024);
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
                                   [--timeout SECONDS] [--duckdb-threads 2]
                  --sf           scale factor (data generated once, cached under --data)
                  --query        queries to run (default: all 22)
                  --compare      also run DuckDB on the same files; print ratios and whether answers agree
                  --coordinator  run on a running cluster instead of an embedded one
                  --data         data directory (default: $SLUICE_TPCH_DATA or ~/.sluice/tpch)""";

        double scaleFactor = 1;
        int[] queries = TpchQueries.all();
        boolean compare;
        int runs = 3;
        int warmups = 1;
        int workers = 2;
        String coordinator;
        Path dataDirectory = defaultDataDirectory();
        long timeoutSeconds = 300;
        int duckdbThreads = 2;
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
                    case "--runs" -> o.runs = positive(value(args, ++i, arg), arg);
                    case "--warmups" -> o.warmups = Integer.parseInt(value(args, ++i, arg));
                    case "--workers" -> o.workers = positive(value(args, ++i, arg), arg);
                    case "--coordinator" -> o.coordinator = value(args, ++i, arg);
                    case "--data" -> o.dataDirectory = Path.of(value(args, ++i, arg));
                    case "--timeout" -> o.timeoutSeconds = positive(value(args, ++i, arg), arg);
                    case "--duckdb-threads" -> o.duckdbThreads = positive(value(args, ++i, arg), arg);
                    case "-h", "--help" -> o.help = true;
                    default -> throw new IllegalArgumentException("unknown option '" + arg + "'");
                }
            }
            for (int q : o.queries) {
                if (q < 1 || q > TpchQueries.COUNT) {
                    throw new IllegalArgumentException("TPC-H has queries 1 to 22, not " + q);
                }
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
