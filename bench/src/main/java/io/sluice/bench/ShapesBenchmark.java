package io.sluice.bench;

import io.sluice.api.LocalCluster;
import io.sluice.api.Session;
import io.sluice.bench.tpch.TpchBenchmark;
import io.sluice.kernels.QueryResult;
import io.sluice.tpch.Agreement;
import io.sluice.tpch.Answers;
import io.sluice.tpch.TpchData;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The slow query shapes of issue 30 on TPC-H data, each run on an embedded two-worker cluster and on
 * DuckDB (JDBC, 2 threads) over the same Parquet files in the same run, with the answers compared:
 * grouping sets ({@code ROLLUP}, {@code CUBE}) over many lineitem columns, anti joins in their three
 * spellings, selective dimension joins, windows over large partitions, a CTE read by three consumers
 * with different filters, and the partitioned join through the shuffle (broadcast off, two shuffle
 * partitions).
 * Run by hand, never in the test suite:
 *
 * <pre>
 * bin/bench ShapesBenchmark [sf=1] [data=~/.sluice/tpch] [runs=3] [cases=rollup5,antiLeftJoin,...]
 * </pre>
 *
 * <p>Prints, per case, each side's median wall time and process CPU time (the embedded cluster and
 * DuckDB share this JVM and run one at a time, so the process's CPU time across one query is that
 * side's) over {@code runs} runs after one warm-up, the ratios, and whether the answers agree.
 */
public final class ShapesBenchmark {
    /** Name, then settings and query (Sluice runs the settings first; DuckDB runs only the query). */
    static final Map<String, String[]> CASES = new LinkedHashMap<>();

    static {
        CASES.put("rollup5", new String[] {"", "SELECT l_returnflag, l_linestatus, l_shipmode, l_shipinstruct, l_tax,"
                + " sum(l_quantity), sum(l_extendedprice), count(*), min(l_discount), max(l_shipdate) FROM lineitem"
                + " GROUP BY ROLLUP (l_returnflag, l_linestatus, l_shipmode, l_shipinstruct, l_tax)"});
        CASES.put("cube4", new String[] {"", "SELECT l_returnflag, l_linestatus, l_shipmode, l_shipinstruct,"
                + " sum(l_quantity), count(*), grouping(l_shipmode) FROM lineitem"
                + " GROUP BY CUBE (l_returnflag, l_linestatus, l_shipmode, l_shipinstruct)"});
        CASES.put("rollupMid", new String[] {"", "SELECT l_suppkey, l_returnflag, l_linestatus, sum(l_quantity),"
                + " avg(l_discount), count(*) FROM lineitem GROUP BY ROLLUP (l_suppkey, l_returnflag, l_linestatus)"});
        CASES.put("rollupWide", new String[] {"", "SELECT l_orderkey, l_linenumber, sum(l_quantity), count(*) FROM lineitem"
                + " GROUP BY ROLLUP (l_orderkey, l_linenumber)"});
        CASES.put("antiLeftJoin", new String[] {"", "SELECT count(*), sum(c_acctbal) FROM customer"
                + " LEFT JOIN orders ON c_custkey = o_custkey WHERE o_custkey IS NULL"});
        CASES.put("antiNotExists", new String[] {"", "SELECT count(*), sum(c_acctbal) FROM customer"
                + " WHERE NOT EXISTS (SELECT * FROM orders WHERE o_custkey = c_custkey)"});
        CASES.put("antiNotIn", new String[] {"", "SELECT count(*), sum(c_acctbal) FROM customer"
                + " WHERE c_custkey NOT IN (SELECT o_custkey FROM orders)"});
        CASES.put("antiLeftJoinBig", new String[] {"", "SELECT count(*), sum(o_totalprice) FROM orders"
                + " LEFT JOIN lineitem ON o_orderkey = l_orderkey AND l_returnflag = 'R' WHERE l_orderkey IS NULL"});
        CASES.put("antiNotExistsBig", new String[] {"", "SELECT count(*), sum(o_totalprice) FROM orders WHERE NOT EXISTS"
                + " (SELECT * FROM lineitem WHERE l_orderkey = o_orderkey AND l_returnflag = 'R')"});
        CASES.put("dimJoinPart", new String[] {"", "SELECT l_returnflag, count(*), sum(l_extendedprice), sum(l_quantity)"
                + " FROM lineitem JOIN part ON l_partkey = p_partkey WHERE p_brand = 'Brand#23' AND p_container = 'MED BOX'"
                + " GROUP BY l_returnflag"});
        CASES.put("dimJoinOrders", new String[] {"", "SELECT l_shipmode, count(*), sum(l_extendedprice)"
                + " FROM lineitem JOIN orders ON l_orderkey = o_orderkey"
                + " WHERE o_orderdate BETWEEN DATE '1995-03-01' AND DATE '1995-03-03' GROUP BY l_shipmode"});
        CASES.put("windowRank", new String[] {"", "SELECT count(*), sum(r) FROM (SELECT rank() OVER"
                + " (PARTITION BY l_suppkey ORDER BY l_extendedprice) AS r FROM lineitem) t"});
        CASES.put("windowTwo", new String[] {"", "SELECT count(*), sum(r), sum(s) FROM (SELECT"
                + " rank() OVER (PARTITION BY l_suppkey ORDER BY l_extendedprice) AS r,"
                + " sum(l_quantity) OVER (PARTITION BY l_suppkey ORDER BY l_extendedprice) AS s FROM lineitem) t"});
        CASES.put("cteThree", new String[] {"", "WITH rev AS (SELECT l_suppkey AS s, l_returnflag AS f,"
                + " sum(l_extendedprice * (1 - l_discount)) AS r, count(*) AS c FROM lineitem GROUP BY l_suppkey, l_returnflag)"
                + " SELECT 'a' AS k, sum(r), count(*) FROM rev WHERE f = 'A'"
                + " UNION ALL SELECT 'r', sum(r), count(*) FROM rev WHERE f = 'R' AND s < 5000"
                + " UNION ALL SELECT 'c', sum(r), count(*) FROM rev WHERE c > 200"});
        CASES.put("shuffleJoin", new String[] {"SET sluice.join.broadcast-threshold = -1;\nSET sluice.shuffle.partitions = 2;\n",
                "SELECT o_orderpriority, l_returnflag, count(*), sum(l_extendedprice) FROM lineitem"
                + " JOIN orders ON l_orderkey = o_orderkey GROUP BY o_orderpriority, l_returnflag"});
    }

    private ShapesBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        double sf = 1;
        Path root = Path.of(System.getProperty("user.home"), ".sluice", "tpch");
        int runs = 3;
        List<String> cases = new ArrayList<>(CASES.keySet());
        for (String arg : args) {
            String[] kv = arg.split("=", 2);
            switch (kv[0]) {
                case "sf" -> sf = Double.parseDouble(kv[1]);
                case "data" -> root = Path.of(kv[1]);
                case "runs" -> runs = Integer.parseInt(kv[1]);
                case "cases" -> cases = List.of(kv[1].split(","));
                default -> throw new IllegalArgumentException("unknown argument " + arg + "; use sf=, data=, runs=, cases=");
            }
        }
        for (String name : cases) {
            if (!CASES.containsKey(name)) {
                throw new IllegalArgumentException("unknown case " + name + "; cases: " + CASES.keySet());
            }
        }
        TpchData data = TpchData.generate(root, sf);
        List<String> lines = new ArrayList<>();
        try (Session session = Session.local(LocalCluster.Options.of(2));
                Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            StringBuilder ddl = new StringBuilder();
            data.tables().forEach((table, dir) -> ddl.append("CREATE EXTERNAL TABLE ").append(table)
                    .append(" STORED AS PARQUET LOCATION '").append(dir.toAbsolutePath()).append("';\n"));
            session.sql(ddl.toString());
            TpchBenchmark.prepareDuckDb(duck, data, 2);
            for (String name : cases) {
                String[] c = CASES.get(name);
                String sql = c[1];
                double[] sluice = new double[runs];
                double[] duckdb = new double[runs];
                double[] sluiceCpu = new double[runs];
                double[] duckdbCpu = new double[runs];
                List<List<Object>> actual = null;
                List<List<Object>> expected = null;
                for (int run = -1; run < runs; run++) {
                    long start = System.nanoTime();
                    long cpu = VersusDuckDbBenchmark.processCpuNanos();
                    QueryResult result = session.sql(c[0] + sql).collect();
                    double ms = (System.nanoTime() - start) / 1e6;
                    double cpuMs = (VersusDuckDbBenchmark.processCpuNanos() - cpu) / 1e6;
                    actual = Answers.normalize(result.rows());
                    start = System.nanoTime();
                    cpu = VersusDuckDbBenchmark.processCpuNanos();
                    try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                        expected = TpchBenchmark.readAll(rs);
                    }
                    double duckMs = (System.nanoTime() - start) / 1e6;
                    double duckCpuMs = (VersusDuckDbBenchmark.processCpuNanos() - cpu) / 1e6;
                    if (run >= 0) {
                        sluice[run] = ms;
                        duckdb[run] = duckMs;
                        sluiceCpu[run] = cpuMs;
                        duckdbCpu[run] = duckCpuMs;
                    }
                }
                double s = Medians.sortInPlace(sluice);
                double d = Medians.sortInPlace(duckdb);
                double sc = Medians.sortInPlace(sluiceCpu);
                double dc = Medians.sortInPlace(duckdbCpu);
                String line = String.format(Locale.ROOT, "%-17s %9.0f %9.0f %7.2fx %9.0f %9.0f %7.2fx  %s", name, s, d, s / d,
                        sc, dc, sc / dc, Agreement.of(actual, expected, sql));
                System.out.println(line);
                lines.add(line);
            }
        }
        System.out.printf(Locale.ROOT, "%n%-17s %9s %9s %8s %9s %9s %8s  %s%n", "case", "sluice_ms", "duckdb_ms", "ratio",
                "sluice_cpu", "duck_cpu", "cpu_ratio", "agree");
        lines.forEach(System.out::println);
    }
}
