package io.sluice.bench.tpch;

import io.sluice.api.LocalCluster;
import io.sluice.api.Session;
import io.sluice.bench.Medians;
import io.sluice.connect.ConnectServer;
import io.sluice.connect.TpchDataFrames;
import io.sluice.tpch.Agreement;
import io.sluice.tpch.Answers;
import io.sluice.tpch.TpchData;
import io.sluice.tpch.TpchQueries;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.spark.sql.SparkSession;

/**
 * {@code bin/sluice tpch --via connect}: each TPC-H query on one embedded cluster three ways, side by
 * side in one run, warm: the specification's text through the Java API ({@code Session.sql}), the
 * same text through Spark's own Connect client ({@code spark.sql}), and the query as a Spark
 * DataFrame program ({@code TpchDataFrames}) through that client. Prints each way's median, the
 * ratios to the Java API, and whether the Connect answers agree with the Java API's. The three ways
 * take turns within every run, so machine load falls on all of them alike.
 */
final class ConnectTpchBenchmark {
    private ConnectTpchBenchmark() {
    }

    /** The three ways, in the order they run and print. */
    private enum Way {
        API, CONNECT_SQL, CONNECT_DATAFRAME
    }

    /** Runs the benchmark and returns the exit status: 1 if an answer disagrees or a query fails. */
    static int run(TpchOptions options, TpchData data) throws Exception {
        Session session = Session.local(LocalCluster.Options.of(options.workers));
        LocalCluster cluster = session.localCluster();
        ConnectServer server = ConnectServer.start(cluster.coordinator(), "127.0.0.1", 0, cluster.authSecret());
        try (session; server) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", server.port()), 2000); // Spark's client retries a closed port for minutes
            }
            try (SparkSession spark = SparkSession.builder()
                    .remote("sc://localhost:" + server.port() + "/;token=" + cluster.authSecret()).create()) {
                StringBuilder ddl = new StringBuilder();
                for (Map.Entry<String, Path> table : data.tables().entrySet()) {
                    String dir = table.getValue().toAbsolutePath().toString();
                    ddl.append("CREATE EXTERNAL TABLE ").append(table.getKey()).append(" STORED AS PARQUET LOCATION '")
                            .append(dir).append("';\n");
                    spark.read().parquet(dir).createOrReplaceTempView(table.getKey());
                }
                session.sql(ddl.toString());
                List<Row> rows = new ArrayList<>();
                for (int query : options.queries) {
                    rows.add(measure(options, session, spark, query));
                }
                print(options, data.directory(), rows);
                return rows.stream().allMatch(Row::agrees) ? 0 : 1;
            }
        }
    }

    /** One query's medians (ms, by way) and verdicts. */
    private record Row(int query, double[] medians, String sqlAgreement, String dataFrameAgreement, String error) {
        boolean agrees() {
            return error == null && sqlAgreement.startsWith("yes") && dataFrameAgreement.startsWith("yes");
        }
    }

    private static Row measure(TpchOptions options, Session session, SparkSession spark, int query) {
        String text = TpchQueries.text(query);
        List<Supplier<List<List<Object>>>> ways = List.of(
                () -> Answers.normalize(session.sql(text).collect().rows()),
                () -> TpchDataFrames.normalized(spark.sql(text).collectAsList()),
                () -> TpchDataFrames.normalized(TpchDataFrames.query(spark, query).collectAsList()));
        double[][] times = new double[Way.values().length][options.runs];
        List<List<List<Object>>> answers = new ArrayList<>();
        try {
            for (int run = -options.warmups; run < options.runs; run++) {
                for (Way way : Way.values()) {
                    long start = System.nanoTime();
                    List<List<Object>> answer = ways.get(way.ordinal()).get();
                    double ms = (System.nanoTime() - start) / 1e6;
                    if (answers.size() < Way.values().length) {
                        answers.add(answer); // each way's first answer, warm-up or not
                    }
                    if (run >= 0) {
                        times[way.ordinal()][run] = ms;
                    }
                }
            }
        } catch (RuntimeException e) {
            System.out.printf(Locale.ROOT, "q%d failed: %s%n", query, e.getMessage());
            return new Row(query, new double[Way.values().length], "-", "-", String.valueOf(e.getMessage()));
        }
        double[] medians = new double[Way.values().length];
        for (Way way : Way.values()) {
            medians[way.ordinal()] = Medians.sortInPlace(times[way.ordinal()]);
        }
        List<List<Object>> api = answers.get(Way.API.ordinal());
        String sql = Agreement.of(answers.get(Way.CONNECT_SQL.ordinal()), api, text);
        String dataFrame = Agreement.of(answers.get(Way.CONNECT_DATAFRAME.ordinal()), api, text);
        Row row = new Row(query, medians, sql, dataFrame, null);
        System.out.println(line(row));
        return row;
    }

    private static String line(Row r) {
        double api = r.medians[Way.API.ordinal()];
        double sql = r.medians[Way.CONNECT_SQL.ordinal()];
        double df = r.medians[Way.CONNECT_DATAFRAME.ordinal()];
        return String.format(Locale.ROOT, "q%-4d %10.1f %12.1f %7.2fx %14.1f %7.2fx  %-6s %-6s", r.query, api, sql, sql / api, df,
                df / api, r.sqlAgreement, r.dataFrameAgreement);
    }

    private static void print(TpchOptions options, Path data, List<Row> rows) {
        System.out.printf(Locale.ROOT, "%nTPC-H sf %s via Spark Connect (%s), %d workers, median of %d runs after %d warm-up%n",
                options.scaleFactor, data, options.workers, options.runs, options.warmups);
        System.out.printf(Locale.ROOT, "%-5s %10s %12s %8s %14s %8s  %-6s %-6s%n", "query", "api ms", "connect sql", "ratio",
                "connect df", "ratio", "sql=", "df=");
        double[] totals = new double[Way.values().length];
        for (Row r : rows) {
            if (r.error != null) {
                System.out.printf(Locale.ROOT, "q%-4d failed: %s%n", r.query, r.error);
                continue;
            }
            System.out.println(line(r));
            for (int i = 0; i < totals.length; i++) {
                totals[i] += r.medians[i];
            }
        }
        double api = totals[Way.API.ordinal()];
        System.out.printf(Locale.ROOT, "%-5s %10.1f %12.1f %7.2fx %14.1f %7.2fx%n", "total", api, totals[Way.CONNECT_SQL.ordinal()],
                totals[Way.CONNECT_SQL.ordinal()] / api, totals[Way.CONNECT_DATAFRAME.ordinal()],
                totals[Way.CONNECT_DATAFRAME.ordinal()] / api);
        System.out.println("sql= / df=: whether the Connect answer agrees with the Java API's (yes~: within "
                + Agreement.ABSOLUTE + " absolute plus " + Agreement.RELATIVE + " relative)");
    }
}
