package io.sluice.bench;

import io.sluice.api.Session;
import io.sluice.datasource.file.SourceFiles;
import io.sluice.datasource.file.StoreRequests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * How long planning takes over a Hive-partitioned dataset of 5,000 Parquet files (DuckDB writes it
 * once, as {@code PartitionedReadTest} does): {@code CREATE EXTERNAL TABLE} (a cold listing and the
 * first file's footer), then {@code EXPLAIN} of a one-partition filter with the listing forgotten
 * each time (a cold listing; statistics read from sampled footers the first time), median of the
 * runs, with the object-store requests each step made. Run on the local directory and on any other
 * URIs of the same files (an S3-compatible server serving the directory as a bucket):
 *
 * <pre>
 * java --add-opens=java.base/java.nio=ALL-UNNAMED -Dsluice.hadoop.fs.s3a.endpoint=... \
 *     -cp 'bench/target/sluice-bench-0.1.0-SNAPSHOT.jar:bench/target/lib/*' io.sluice.bench.ListingBenchmark \
 *     /tmp/s3/lake/events s3a://lake/events
 * </pre>
 */
public final class ListingBenchmark {
    private static final int GROUPS = 250;
    private static final int HOURS = 20;
    private static final int RUNS = 5;

    private ListingBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: ListingBenchmark LOCAL_DIR [URI...]");
            System.exit(2);
        }
        Path dir = Path.of(args[0]).toAbsolutePath();
        if (!Files.isDirectory(dir)) {
            write(dir);
        }
        System.out.printf(Locale.ROOT, "%d Parquet files under %s%n", parquetFiles(dir), dir);
        List<String> locations = new ArrayList<>();
        locations.add(dir.toString());
        locations.addAll(List.of(args).subList(1, args.length));
        try (Session session = Session.local(2)) {
            for (int i = 0; i < locations.size(); i++) {
                measure(session, "events" + i, locations.get(i));
            }
        }
    }

    private static void measure(Session session, String table, String location) {
        SourceFiles.forgetListings();
        Map<String, Long> before = StoreRequests.snapshot();
        long start = System.nanoTime();
        session.sql("CREATE EXTERNAL TABLE " + table + " STORED AS PARQUET LOCATION '" + location + "'");
        double register = (System.nanoTime() - start) / 1e6;
        Map<String, Long> registerRequests = StoreRequests.since(before, StoreRequests.snapshot());
        double[] plans = new double[RUNS];
        double first = 0;
        Map<String, Long> planRequests = Map.of();
        for (int run = -1; run < RUNS; run++) {
            SourceFiles.forgetListings();
            before = StoreRequests.snapshot();
            start = System.nanoTime();
            String plan = session.sql("EXPLAIN SELECT count(*), sum(amount) FROM " + table + " WHERE g = 17 AND h = 3")
                    .collect().rows().toString();
            double ms = (System.nanoTime() - start) / 1e6;
            if (!plan.contains("files=1/" + GROUPS * HOURS)) {
                throw new IllegalStateException("the filter did not prune to one file: " + plan);
            }
            if (run < 0) {
                first = ms;
            } else {
                plans[run] = ms;
                planRequests = StoreRequests.since(before, StoreRequests.snapshot());
            }
        }
        System.out.printf(Locale.ROOT, "%s: register %.0f ms %s; first EXPLAIN %.0f ms; EXPLAIN with a cold listing,"
                + " median of %d: %.0f ms %s%n", location, register, registerRequests, first, RUNS,
                Medians.sortInPlace(plans), planRequests);
    }

    private static void write(Path dir) throws Exception {
        Files.createDirectories(dir.getParent());
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:"); Statement s = duck.createStatement()) {
            s.execute("SET threads = 2");
            s.execute("COPY (SELECT range AS id, CAST(range % 1000 AS INTEGER) AS amount, 'v' || (range % 7) AS tag,"
                    + " CAST(range % " + GROUPS + " AS INTEGER) AS g, CAST((range // " + GROUPS + ") % " + HOURS
                    + " AS INTEGER) AS h FROM range(0, " + GROUPS * HOURS * 4 + ")) TO '" + dir
                    + "' (FORMAT parquet, PARTITION_BY (g, h))");
        }
    }

    private static long parquetFiles(Path dir) throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> p.toString().endsWith(".parquet")).count();
        }
    }
}
