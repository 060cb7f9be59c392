package io.sluice.bench;

import io.sluice.api.Session;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * What reading one field of a wide struct costs: a Parquet file (DuckDB writes it once) of 5M rows
 * whose column {@code s} is a STRUCT of 20 BIGINT fields, and {@code SELECT sum(s.f1)}. Sluice with
 * nested projection pruning (the scan reads {@code s.f1} only), Sluice decoding the whole struct
 * (the same sum with {@code count(s)} beside it: a bare use keeps all 20 fields, as every query did
 * before pruning), and DuckDB on the same file, in the same run; medians and ratios printed.
 *
 * <pre>
 * java --add-opens=java.base/java.nio=ALL-UNNAMED \
 *     -cp 'bench/target/sluice-bench-0.1.0-SNAPSHOT.jar:bench/target/lib/*' io.sluice.bench.NestedPruningBenchmark /tmp/wide.parquet
 * </pre>
 */
public final class NestedPruningBenchmark {
    private static final int FIELDS = 20;
    private static final long ROWS = 5_000_000;
    private static final int RUNS = 3;

    private NestedPruningBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args.length > 0 ? args[0] : "/tmp/sluice-wide-struct.parquet").toAbsolutePath();
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            if (!Files.exists(file)) {
                StringJoiner fields = new StringJoiner(", ", "{", "}");
                for (int f = 1; f <= FIELDS; f++) {
                    fields.add("'f" + f + "': i * " + f);
                }
                try (Statement s = duck.createStatement()) {
                    s.execute("COPY (SELECT i AS id, " + fields + " AS s FROM range(0, " + ROWS + ") t(i)) TO '" + file
                            + "' (FORMAT parquet)");
                }
            }
            try (Session session = Session.local(2)) {
                session.sql("CREATE EXTERNAL TABLE wide STORED AS PARQUET LOCATION '" + file + "'");
                String pruned = session.sql("EXPLAIN SELECT sum(s.f1) FROM wide").collect().rows().toString();
                if (!pruned.contains("read_schema=[s: STRUCT<f1: BIGINT>]")) {
                    throw new IllegalStateException("the scan does not read s.f1 alone: " + pruned);
                }
                double leaf = time(() -> session.sql("SELECT sum(s.f1) FROM wide").collect());
                double whole = time(() -> session.sql("SELECT sum(s.f1), count(s) FROM wide").collect());
                double duckDb = time(() -> {
                    try (Statement s = duck.createStatement(); ResultSet r = s.executeQuery(
                            "SELECT sum(s.f1) FROM read_parquet('" + file + "')")) {
                        r.next();
                    }
                });
                System.out.printf(Locale.ROOT, "%,d rows, STRUCT of %d fields, SELECT sum(s.f1), median of %d runs%n", ROWS,
                        FIELDS, RUNS);
                System.out.printf(Locale.ROOT, "sluice, s.f1 read alone:   %8.1f ms%n", leaf);
                System.out.printf(Locale.ROOT, "sluice, whole struct read: %8.1f ms  (%.2fx the pruned read)%n", whole,
                        whole / leaf);
                System.out.printf(Locale.ROOT, "duckdb:                    %8.1f ms  (sluice pruned / duckdb = %.2fx)%n", duckDb,
                        leaf / duckDb);
            }
        }
    }

    private interface Run {
        void run() throws Exception;
    }

    private static double time(Run run) throws Exception {
        run.run(); // warm-up
        double[] ms = new double[RUNS];
        for (int i = 0; i < RUNS; i++) {
            long start = System.nanoTime();
            run.run();
            ms[i] = (System.nanoTime() - start) / 1e6;
        }
        return Medians.sortInPlace(ms);
    }
}
