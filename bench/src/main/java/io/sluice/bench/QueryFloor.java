package io.sluice.bench;

import com.sun.management.OperatingSystemMXBean;
import io.sluice.api.Session;
import io.sluice.tpch.TpchQueries;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The fixed cost of a query in a warm session: tiny queries through {@link Session#local} (an
 * embedded coordinator and 2 workers, real Pekko and Netty on loopback) over a TPC-H directory, each
 * run a few times unmeasured, then {@code runs} times. Per query: the median and least wall time,
 * and the process's CPU time per run (every thread: planning, dispatch, tasks, shuffle, results,
 * collectors and compilers). On a loaded machine wall times swing with other processes; CPU per run
 * is the steadier figure to compare builds with. The same data and session serve every query.
 */
final class QueryFloor {
    private static final int WARMUPS = 3;
    private static final List<String> TABLES = List.of("nation", "region", "part", "supplier", "partsupp", "customer",
            "orders", "lineitem");

    private QueryFloor() {
    }

    /** The measured queries by name: two tiny ones, then TPC-H queries over small tables. */
    static Map<String, String> queries() {
        Map<String, String> queries = new LinkedHashMap<>();
        queries.put("count_nation", "SELECT count(*) FROM nation");
        queries.put("nation_region", "SELECT r_name, count(*) FROM nation JOIN region ON n_regionkey = r_regionkey "
                + "GROUP BY r_name");
        for (int q : new int[] {22, 11, 2}) {
            queries.put("q" + q, TpchQueries.text(q, 1));
        }
        return queries;
    }

    /** Runs every query of {@link #queries()} over the tables under {@code data} ({@code data/nation/*.parquet}, ...). */
    static void run(Path data, int runs) {
        if (runs < 1) {
            throw new IllegalArgumentException("runs must be at least 1: " + runs);
        }
        for (String table : TABLES) {
            if (!Files.isDirectory(data.resolve(table))) {
                throw new IllegalArgumentException("no table directory " + data.resolve(table)
                        + " (a TPC-H SF1 directory, as 'sluice tpch' writes one, is expected)");
            }
        }
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        System.out.printf(Locale.ROOT, "%-14s %10s %10s %14s%n", "query", "median ms", "min ms", "cpu ms / run");
        try (Session session = Session.local(2)) {
            StringBuilder ddl = new StringBuilder();
            for (String table : TABLES) {
                ddl.append("CREATE EXTERNAL TABLE ").append(table).append(" STORED AS PARQUET LOCATION '")
                        .append(data.resolve(table).toAbsolutePath()).append("';\n");
            }
            session.sql(ddl.toString());
            for (Map.Entry<String, String> query : queries().entrySet()) {
                for (int i = 0; i < WARMUPS; i++) {
                    session.sql(query.getValue()).collect();
                }
                double[] millis = new double[runs];
                long cpuBefore = os.getProcessCpuTime();
                for (int i = 0; i < runs; i++) {
                    long start = System.nanoTime();
                    session.sql(query.getValue()).collect();
                    millis[i] = (System.nanoTime() - start) / 1e6;
                }
                double cpuPerRun = (os.getProcessCpuTime() - cpuBefore) / 1e6 / runs;
                double median = Medians.sortInPlace(millis);
                System.out.printf(Locale.ROOT, "%-14s %10.1f %10.1f %14.1f%n", query.getKey(), median, millis[0], cpuPerRun);
            }
        }
    }
}
