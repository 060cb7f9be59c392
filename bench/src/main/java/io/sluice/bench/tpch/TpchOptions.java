package io.sluice.bench.tpch;

import io.sluice.tpch.TpchQueries;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The command-line options of {@code bin/sluice tpch} ({@link TpchBenchmark}), parsed and checked. */
final class TpchOptions {
    static final String USAGE = """
            usage: sluice tpch [--sf 1] [--query N[,N...]] [--compare] [--runs 3] [--warmups 1]
                               [--workers 2] [--coordinator HOST:HTTP_PORT] [--data DIR]
                               [--timeout SECONDS] [--duckdb-threads 2] [--spark] [--memory SIZE]
                               [--set NAME=VALUE]... [--estimates [--plans DIR]] [--location URI [--versus-local]]
                               [--writer sluice|duckdb|spark] [--via connect]
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
              --data         data directory (default: $SLUICE_TPCH_DATA or ~/.sluice/tpch)
              --writer       the engine that writes the Parquet files (default sluice): duckdb or
                             spark write Sluice's generated tables again, cached as DIR/sf<N>-<writer>;
                             spark needs bench/spark-peer built (see --spark)
              --location     Sluice reads the tables from URI/<table> (any Hadoop URI, e.g.
                             s3a://tpch/sf1, configured with -Dsluice.hadoop.* in SLUICE_JAVA_OPTS)
                             instead of the files under --data, which stay the local copy of the
                             same files that DuckDB reads with --compare; prints the object-store
                             requests (GET, HEAD, LIST) each query run made
              --via connect  instead: each query three ways on one embedded cluster, side by side: the
                             text through the Java API, the text through Spark's Connect client
                             (spark.sql), and the query as a Spark DataFrame program through it;
                             prints the medians, the ratios to the Java API, whether answers agree
              --versus-local with --location: also run each query on the local copy under --data,
                             right after its run at --location on a second embedded cluster, and
                             print the time ratio location/local (same run, so the same machine load)""";

    double scaleFactor = 1;
    int[] queries = TpchQueries.all();
    boolean compare;
    boolean spark;
    int runs = 3;
    int warmups = 1;
    int workers = 2;
    String coordinator;
    Path dataDirectory = defaultDataDirectory();
    String location;
    TpchWriter writer = TpchWriter.SLUICE;
    long timeoutSeconds = 300;
    int duckdbThreads = 2;
    List<String> settings = new ArrayList<>();
    long memory;
    boolean estimates;
    boolean versusLocal;
    boolean viaConnect;
    Path plansDirectory;
    boolean help;

    static TpchOptions parse(String[] args) {
        TpchOptions o = new TpchOptions();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--sf" -> o.scaleFactor = Double.parseDouble(value(args, ++i, arg));
                case "--query" -> o.queries = Arrays.stream(value(args, ++i, arg).split(","))
                        .map(String::trim).map(q -> q.startsWith("q") ? q.substring(1) : q).mapToInt(Integer::parseInt).toArray();
                case "--compare" -> o.compare = true;
                case "--spark" -> o.spark = true;
                case "--estimates" -> o.estimates = true;
                case "--versus-local" -> o.versusLocal = true;
                case "--via" -> {
                    String via = value(args, ++i, arg);
                    if (!via.equals("connect")) {
                        throw new IllegalArgumentException("--via takes 'connect', not '" + via + "'");
                    }
                    o.viaConnect = true;
                }
                case "--plans" -> o.plansDirectory = Path.of(value(args, ++i, arg));
                case "--runs" -> o.runs = positive(value(args, ++i, arg), arg);
                case "--warmups" -> o.warmups = Integer.parseInt(value(args, ++i, arg));
                case "--workers" -> o.workers = positive(value(args, ++i, arg), arg);
                case "--coordinator" -> o.coordinator = value(args, ++i, arg);
                case "--data" -> o.dataDirectory = Path.of(value(args, ++i, arg));
                case "--writer" -> o.writer = TpchWriter.parse(value(args, ++i, arg));
                case "--location" -> o.location = value(args, ++i, arg).replaceAll("/+$", "");
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
        if (o.versusLocal && (o.location == null || o.coordinator != null)) {
            throw new IllegalArgumentException("--versus-local needs --location and an embedded cluster (no --coordinator)");
        }
        if (o.viaConnect && (o.coordinator != null || o.location != null || o.compare || o.spark || o.memory > 0 || o.estimates)) {
            throw new IllegalArgumentException("--via connect runs its own embedded cluster on the files under --data;"
                    + " it does not go with --coordinator, --location, --compare, --spark, --memory or --estimates");
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
