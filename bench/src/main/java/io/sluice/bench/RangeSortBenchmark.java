package io.sluice.bench;

import io.sluice.api.LocalCluster;
import io.sluice.api.Session;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Global ORDER BY on an embedded cluster of two workers, range-partitioned (range repartition,
 * per-partition sort, ordered gather) against gather-and-sort ({@code SET
 * sluice.sort.range-partitioned = false}), in the same run over the same Parquet files. Run by hand,
 * never in the test suite:
 *
 * <pre>
 * java -Xmx6g -cp ... io.sluice.bench.RangeSortBenchmark [rows=20000000] [dir=/tmp/sluice-range-sort] [runs=3] [verbose=false]
 * </pre>
 *
 * <p>Each query runs as {@code EXPLAIN ANALYZE}: the result stage's blocks are fetched by the
 * coordinator and counted, not decoded into Java rows, so the time is the engine's (the same
 * collection cost for both plans). Prints each run's time, the medians and their ratio. Data: a
 * BIGINT key with many duplicates (a fixed pseudo-random permutation), a DOUBLE second key and a
 * BIGINT payload (numbers only: 20 million strings on one task's heap stall the embedded JVM in GC
 * long enough for the cluster to declare workers lost), in 8 files written by DuckDB (cached under {@code dir} by row count).
 */
public final class RangeSortBenchmark {
    private static final Pattern QUERY_TIME = Pattern.compile("Query: (\\d+) rows in ([0-9.]+)ms");

    private RangeSortBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        long rows = 20_000_000;
        Path dir = Path.of("/tmp/sluice-range-sort");
        int runs = 3;
        boolean verbose = false;
        for (String arg : args) {
            String[] kv = arg.split("=", 2);
            switch (kv[0]) {
                case "rows" -> rows = Long.parseLong(kv[1]);
                case "dir" -> dir = Path.of(kv[1]);
                case "runs" -> runs = Integer.parseInt(kv[1]);
                case "verbose" -> verbose = Boolean.parseBoolean(kv[1]);
                default -> throw new IllegalArgumentException("unknown argument " + arg + "; use rows=, dir=, runs=, verbose=");
            }
        }
        Path data = dir.resolve("numeric-rows-" + rows);
        generate(data, rows);
        String sql = "SELECT k, x, v FROM t ORDER BY k, x";
        try (Session session = Session.local(LocalCluster.Options.of(2).withShufflePartitions(8))) {
            session.sql("CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION '" + data + "'");
            List<Double> ranged = new ArrayList<>();
            List<Double> gathered = new ArrayList<>();
            for (int r = 0; r < runs; r++) {
                ranged.add(time(session, "", sql, rows, verbose));
                gathered.add(time(session, "SET sluice.sort.range-partitioned = false; ", sql, rows, verbose));
                System.out.printf(Locale.ROOT, "run %d: range-partitioned %.0f ms, gather-and-sort %.0f ms%n", r + 1,
                        ranged.get(r), gathered.get(r));
            }
            double a = median(ranged);
            double b = median(gathered);
            System.out.printf(Locale.ROOT, "%d rows, 2 workers, 8 partitions: range-partitioned median %.0f ms, "
                    + "gather-and-sort median %.0f ms, speed-up %.2fx%n", rows, a, b, b / a);
        }
    }

    /** One EXPLAIN ANALYZE run: the query's own time as reported, after checking it returned every row. */
    private static double time(Session session, String set, String sql, long rows, boolean verbose) {
        List<List<Object>> lines = session.sql(set + "EXPLAIN ANALYZE " + sql).rows();
        if (verbose) {
            lines.forEach(line -> System.out.println(line.get(0)));
        }
        String first = String.valueOf(lines.get(0).get(0));
        Matcher m = QUERY_TIME.matcher(first);
        if (!m.find() || Long.parseLong(m.group(1)) != rows) {
            throw new IllegalStateException("unexpected EXPLAIN ANALYZE header: " + first);
        }
        return Double.parseDouble(m.group(2));
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }

    private static void generate(Path data, long rows) throws Exception {
        if (Files.exists(data.resolve("_SUCCESS"))) {
            return;
        }
        Files.createDirectories(data);
        long perFile = (rows + 7) / 8;
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:"); Statement s = duck.createStatement()) {
            for (int f = 0; f < 8; f++) {
                long from = f * perFile;
                long to = Math.min(rows, from + perFile);
                s.execute("COPY (SELECT (i * 2654435761) % " + Math.max(1, rows / 4) + " AS k, "
                        + "CAST((i * 40503) % 1000003 AS DOUBLE) / 7 AS x, i AS v FROM range(" + from
                        + ", " + to + ") r(i)) TO '" + data.resolve("part-" + f + ".parquet") + "' (FORMAT PARQUET)");
            }
        }
        Files.createFile(data.resolve("_SUCCESS"));
    }
}
