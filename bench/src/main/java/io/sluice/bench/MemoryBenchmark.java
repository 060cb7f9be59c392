package io.sluice.bench;

import io.sluice.api.LocalCluster;
import io.sluice.api.Session;
import io.sluice.cluster.protocol.TaskMetrics;
import io.sluice.operators.memory.Bytes;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The memory jobs of issue 9 on embedded clusters of two workers (real Pekko and Netty on
 * 127.0.0.1, Parquet files read through the engine): a global {@code ORDER BY} over 20M rows, a
 * {@code GROUP BY} with 10M distinct keys and a hash join whose build side is ten times a worker's
 * memory, each on workers of {@code memory} (default 64m) and of the default memory ("unlimited":
 * {@code sluice.worker.memory} unset), and on DuckDB (JDBC, 2 threads) over the same files, in one
 * run. Prints per job the median times, the ratios (small memory / default memory, Sluice / DuckDB),
 * the bytes spilled per run and whether both Sluice answers agree with DuckDB's. Run by hand, never
 * in the test suite:
 *
 * <pre>
 * bin/bench MemoryBenchmark [full] [scale=0.1] [memory=64m] [dir=/tmp/sluice-memory-bench] [runs=1] [warmups=0] [timeout=1800]
 * </pre>
 *
 * <p>{@code full} (or {@code scale=1}) is the sizes; the default scale 0.1 is a quick check
 * (2M rows, 1M keys, a build side of one worker memory). Sluice runs each query as
 * {@code EXPLAIN ANALYZE} (the result is counted, not decoded: the engine's time,
 * {@link RangeSortBenchmark#time}) and DuckDB as {@code EXPLAIN ANALYZE} too. The aggregate and the
 * join are wrapped in a one-row checksum query (count and sums over the whole result), which is
 * also the answer compared; the sort is checked by reading its result in full: global order,
 * count, sum and a row-number-weighted sum against DuckDB ({@link RangeSortBenchmark#verify}). The
 * join runs with {@code sluice.join.sort-merge-threshold} raised so that it stays a hash join (the
 * default would sort-merge a build side this large): the point is the grace hash join.
 */
public final class MemoryBenchmark {
    private MemoryBenchmark() {
    }

    /** One job: its Sluice SQL (settings first), DuckDB SQL, expected rows of the timed query, and how it is checked. */
    private record Job(String name, String settings, String sql, String duckSql, long resultRows, boolean sortCheck, Path data) {
    }

    /** Figures of one job on one setup. */
    private static final class Outcome {
        double ms = Double.NaN;
        long spilled = -1;
        long taskPeak = -1;
        String agrees = "-";
        String error;
    }

    public static void main(String[] args) throws Exception {
        double scale = 0.1;
        long memory = 64L << 20;
        String memoryLabel = "64m";
        Path dir = Path.of("/tmp/sluice-memory-bench");
        int runs = 1;
        int warmups = 0;
        long timeoutSeconds = 1800;
        for (String arg : args) {
            String[] kv = arg.split("=", 2);
            switch (kv[0]) {
                case "full" -> scale = 1;
                case "scale" -> scale = Double.parseDouble(kv[1]);
                case "memory" -> {
                    memory = Bytes.parse("memory", kv[1]);
                    memoryLabel = kv[1];
                }
                case "dir" -> dir = Path.of(kv[1]);
                case "runs" -> runs = Integer.parseInt(kv[1]);
                case "warmups" -> warmups = Integer.parseInt(kv[1]);
                case "timeout" -> timeoutSeconds = Long.parseLong(kv[1]);
                default -> throw new IllegalArgumentException("unknown argument " + arg
                        + "; use full, scale=, memory=, dir=, runs=, warmups=, timeout=");
            }
        }
        long sortRows = Math.max(1000, Math.round(20_000_000 * scale));
        long groupKeys = Math.max(1000, Math.round(10_000_000 * scale));
        // a build row is three BIGINT columns: about 24 bytes on the heap (HeapSize)
        long buildRows = Math.max(1000, Math.round(10.0 * memory / 24 * scale));
        List<Job> jobs = prepare(dir, sortRows, groupKeys, buildRows);
        System.out.printf(Locale.ROOT, "data under %s: sort %d rows, group by %d keys (%d rows), join build %d rows "
                + "(%s as 3 BIGINT columns), probe %d rows%n", dir, sortRows, groupKeys, 2 * groupKeys, buildRows,
                Bytes.format(buildRows * 24), buildRows);

        Map<String, Outcome> duck = new java.util.LinkedHashMap<>();
        Map<String, Outcome> limited = new java.util.LinkedHashMap<>();
        Map<String, Outcome> unlimited = new java.util.LinkedHashMap<>();
        try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:")) {
            try (Statement s = duckdb.createStatement()) {
                s.execute("SET threads = 2");
            }
            for (Job job : jobs) {
                duck.put(job.name, runDuckDb(duckdb, job, warmups, runs));
            }
            LocalCluster.Options base = LocalCluster.Options.of(2).withJobTimeout(Duration.ofSeconds(timeoutSeconds));
            // both clusters up at once; per job the default-memory run first, so that the small-memory
            // run (the subject) does not also pay for the JVM's warm-up
            try (Session small = Session.local(base.withWorkerMemory(memory)); Session large = Session.local(base)) {
                for (Job job : jobs) {
                    unlimited.put(job.name, runSluice(large, "unlimited", job, warmups, runs, duckdb));
                    limited.put(job.name, runSluice(small, memoryLabel, job, warmups, runs, duckdb));
                }
            }
        }
        print(jobs, memoryLabel, scale, warmups, runs, limited, unlimited, duck);
    }

    private static List<Job> prepare(Path dir, long sortRows, long groupKeys, long buildRows) throws Exception {
        Path sortData = dir.resolve("sort-" + sortRows);
        RangeSortBenchmark.generate(sortData, sortRows);
        Path groupData = dir.resolve("group-" + groupKeys);
        // 2654435761 is prime: i * it mod K is a permutation of each block of K rows, so every key appears twice
        RangeSortBenchmark.writeParquet(groupData, 2 * groupKeys, "(i * 2654435761) % " + groupKeys + " AS k, i AS v");
        Path build = dir.resolve("build-" + buildRows);
        RangeSortBenchmark.writeParquet(build, buildRows, "i AS k, (i * 7) % 1000003 AS a, i % 1009 AS c");
        Path probe = dir.resolve("probe-" + buildRows);
        // distinct keys in [0, 2 * buildRows): about half find their build row; four columns, so the probe is the larger input
        RangeSortBenchmark.writeParquet(probe, buildRows, "(i * 2654435761) % " + 2 * buildRows + " AS k, i AS w, i % 13 AS y, "
                + "i * 3 AS z");
        String sortSql = "SELECT k, x, v FROM t ORDER BY k, x";
        String groupSql = "SELECT count(*) AS groups, sum(k * c) AS kc, sum(s % 1000003) AS sm FROM "
                + "(SELECT k, count(*) AS c, sum(v) AS s FROM g GROUP BY k) AS a";
        String joinSql = "SELECT count(*) AS n, sum(b.a * p.y) AS ay, sum((p.w % 1000003) * b.c) AS wc FROM p JOIN b ON p.k = b.k";
        return List.of(
                new Job("order by " + millions(sortRows) + " rows",
                        "CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION '" + sortData + "'; ", sortSql,
                        sortSql.replace("FROM t", "FROM read_parquet('" + sortData + "/*.parquet')"), sortRows, true, sortData),
                new Job("group by " + millions(groupKeys) + " keys",
                        "CREATE EXTERNAL TABLE g STORED AS PARQUET LOCATION '" + groupData + "'; ", groupSql,
                        groupSql.replace("FROM g", "FROM read_parquet('" + groupData + "/*.parquet')"), 1, false, groupData),
                new Job("join, build " + millions(buildRows) + " rows",
                        "CREATE EXTERNAL TABLE b STORED AS PARQUET LOCATION '" + build + "'; CREATE EXTERNAL TABLE p STORED AS "
                                + "PARQUET LOCATION '" + probe + "'; SET sluice.join.sort-merge-threshold = " + Long.MAX_VALUE + "; ",
                        joinSql, joinSql.replace("FROM p JOIN b", "FROM read_parquet('" + probe + "/*.parquet') AS p JOIN read_parquet('"
                                + build + "/*.parquet') AS b"), 1, false, null));
    }

    private static String millions(long n) {
        return n % 1_000_000 == 0 ? n / 1_000_000 + "M" : String.format(Locale.ROOT, "%.1fM", n / 1e6);
    }

    private static Outcome runDuckDb(Connection duckdb, Job job, int warmups, int runs) {
        Outcome out = new Outcome();
        List<Double> times = new ArrayList<>();
        try {
            for (int r = -warmups; r < runs; r++) {
                long start = System.nanoTime();
                try (Statement s = duckdb.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN ANALYZE " + job.duckSql)) {
                    while (rs.next()) {
                        rs.getString(1);
                    }
                }
                if (r >= 0) {
                    times.add((System.nanoTime() - start) / 1e6);
                }
            }
            out.ms = Medians.of(times);
        } catch (java.sql.SQLException e) {
            out.error = e.getMessage();
        }
        System.out.printf(Locale.ROOT, "duckdb           %-24s %s%n", job.name, out.error != null ? "error: " + out.error
                : String.format(Locale.ROOT, "%.0f ms", out.ms));
        return out;
    }

    private static Outcome runSluice(Session session, String setup, Job job, int warmups, int runs, Connection duckdb) {
        Outcome out = new Outcome();
        List<Double> times = new ArrayList<>();
        long spilled = 0;
        long peak = 0;
        try {
            session.sql(statementsOf(job.settings, "CREATE"));
            String set = statementsOf(job.settings, "SET");
            for (int r = 0; r < warmups; r++) {
                RangeSortBenchmark.time(session, set, job.sql, job.resultRows, false, new RangeSortBenchmark.Timeline());
            }
            for (int r = 0; r < runs; r++) {
                Set<String> before = Set.copyOf(session.localCluster().coordinator().jobMetrics().keySet());
                double[] t = RangeSortBenchmark.time(session, set, job.sql, job.resultRows, false, new RangeSortBenchmark.Timeline());
                times.add(t[0]);
                for (Map.Entry<String, TaskMetrics> m : session.localCluster().coordinator().jobMetrics().entrySet()) {
                    if (!before.contains(m.getKey())) {
                        spilled += m.getValue().spilledBytes();
                        peak = Math.max(peak, m.getValue().peakMemory());
                    }
                }
            }
            out.ms = Medians.of(times);
            out.spilled = spilled / runs;
            out.taskPeak = peak;
            out.agrees = agrees(session, set, job, duckdb);
        } catch (RuntimeException e) {
            out.error = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
        }
        System.out.printf(Locale.ROOT, "sluice %-9s %-24s %s%n", setup, job.name, out.error != null ? "error: " + out.error
                : String.format(Locale.ROOT, "%.0f ms, spilled %s, agrees with duckdb: %s", out.ms, Bytes.format(out.spilled), out.agrees));
        return out;
    }

    /** The statements of a job's settings that start with {@code verb}: CREATE (once per session) or SET (with each query). */
    private static String statementsOf(String settings, String verb) {
        StringBuilder out = new StringBuilder();
        for (String statement : settings.split(";")) {
            if (statement.strip().startsWith(verb)) {
                out.append(statement.strip()).append("; ");
            }
        }
        return out.toString();
    }

    /** "yes", or "NO: " and what differs. */
    private static String agrees(Session session, String set, Job job, Connection duckdb) {
        try {
            if (job.sortCheck) {
                RangeSortBenchmark.verify(session, job.sql, job.data);
                return "yes";
            }
            List<Object> ours = new ArrayList<>();
            for (Object v : session.sql(set + job.sql).collect().rows().get(0)) {
                ours.add(v == null ? null : ((Number) v).longValue());
            }
            List<Object> theirs = new ArrayList<>();
            try (Statement s = duckdb.createStatement(); ResultSet rs = s.executeQuery(job.duckSql)) {
                rs.next();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    Object v = rs.getObject(i);
                    theirs.add(v == null ? null : ((Number) v).longValue());
                }
            }
            return ours.equals(theirs) ? "yes " + ours : "NO: sluice " + ours + ", duckdb " + theirs;
        } catch (Exception e) {
            return "NO: " + String.valueOf(e.getMessage()).lines().findFirst().orElse("");
        }
    }

    private static void print(List<Job> jobs, String mem, double scale, int warmups, int runs, Map<String, Outcome> limited,
            Map<String, Outcome> unlimited, Map<String, Outcome> duck) {
        System.out.println();
        System.out.printf(Locale.ROOT, "2 workers, scale %s, median of %d run%s after %d warm-up%s; unlimited = default worker memory (%s each); "
                + "duckdb threads=2%n", scale, runs, runs == 1 ? "" : "s", warmups, warmups == 1 ? "" : "s",
                Bytes.format(Math.max(1, io.sluice.worker.WorkerSettings.defaultMemory() / 2)));
        String header = String.format(Locale.ROOT, "| %-24s | %10s | %10s | %10s | %8s | %9s | %9s | %10s | %10s | %-9s | %-9s |",
                "job", mem + " ms", "unlim ms", "duckdb ms", mem + "/unl", mem + "/duck", "unl/duck", "spill " + mem,
                "spill unl", "agree " + mem, "agree unl");
        System.out.println(header);
        System.out.println(header.replaceAll("[^|]", "-"));
        for (Job job : jobs) {
            Outcome a = limited.get(job.name);
            Outcome b = unlimited.get(job.name);
            Outcome d = duck.get(job.name);
            System.out.printf(Locale.ROOT, "| %-24s | %10s | %10s | %10s | %8s | %9s | %9s | %10s | %10s | %-9s | %-9s |%n",
                    job.name, ms(a), ms(b), ms(d), ratio(a, b), ratio(a, d), ratio(b, d), spill(a), spill(b), agree(a), agree(b));
        }
        for (Job job : jobs) {
            for (Map.Entry<String, Outcome> o : Map.of(mem, limited.get(job.name), "unlimited", unlimited.get(job.name),
                    "duckdb", duck.get(job.name)).entrySet()) {
                if (o.getValue().error != null) {
                    System.out.printf(Locale.ROOT, "%s on %s: error: %s%n", job.name, o.getKey(), o.getValue().error);
                } else if (o.getValue().agrees.startsWith("NO")) {
                    System.out.printf(Locale.ROOT, "%s on %s: %s%n", job.name, o.getKey(), o.getValue().agrees);
                }
            }
        }
    }

    private static String ms(Outcome o) {
        return o.error != null ? "error" : String.format(Locale.ROOT, "%.0f", o.ms);
    }

    private static String ratio(Outcome a, Outcome b) {
        return a.error != null || b.error != null ? "-" : String.format(Locale.ROOT, "%.2fx", a.ms / b.ms);
    }

    private static String spill(Outcome o) {
        return o.error != null || o.spilled < 0 ? "-" : Bytes.format(o.spilled).replace(" ", "");
    }

    private static String agree(Outcome o) {
        return o.error != null ? "-" : o.agrees.startsWith("yes") ? "yes" : "NO";
    }
}
