package io.sluice.sparkpeer;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Runs TPC-H query texts on Apache Spark in {@code local[2]} over the Parquet layout of Sluice's
 * {@code TpchData} (one directory per table holding {@code part-NN.parquet} files) and prints one
 * JSON line per query on stdout; Spark's own logging goes to stderr.
 *
 * <p>Usage: {@code SparkTpchRunner DATA_DIR QUERIES RUNS WARMUPS [TIMEOUT_SECONDS]} where QUERIES is
 * a directory of {@code qN.sql} files (run in N order) or a comma-separated list of such files.
 *
 * <p>Output, one line per query, in the order run:
 * <pre>
 * {"query":3,"median_ms":812.5,"rows":10,"answer":[[2456423,"406181.0111","1995-03-05",0],...]}
 * {"query":4,"error":"first line of the error message"}
 * </pre>
 * Answer values are normalized as {@code io.sluice.tpch.Answers} does, so the two compare with
 * {@code equals}: integers as JSON numbers (longs), decimals as strings without trailing zeros
 * (a whole decimal as a long), doubles rounded to 9 significant digits (a whole double as a long),
 * dates and everything else as their ISO/string form, NULL as null. A run over TIMEOUT_SECONDS
 * (default 300) cancels Spark's jobs and reports an error; the runner then goes on.
 */
public final class SparkTpchRunner {
    private static final Pattern QUERY_FILE = Pattern.compile("q(\\d+)\\.sql");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final MathContext SIGNIFICANT = new MathContext(9);

    private SparkTpchRunner() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 4 || args.length > 5) {
            System.err.println("usage: SparkTpchRunner DATA_DIR QUERY_DIR|Q.sql[,Q.sql...] RUNS WARMUPS [TIMEOUT_SECONDS]");
            System.exit(2);
        }
        Path data = Path.of(args[0]);
        List<Path> queries = queryFiles(args[1]);
        int runs = Integer.parseInt(args[2]);
        int warmups = Integer.parseInt(args[3]);
        long timeoutSeconds = args.length == 5 ? Long.parseLong(args[4]) : 300;
        if (!Files.isDirectory(data) || runs < 1 || warmups < 0 || timeoutSeconds < 1) {
            System.err.println("error: need an existing data directory, RUNS >= 1, WARMUPS >= 0, TIMEOUT_SECONDS >= 1");
            System.exit(2);
        }
        // stdout carries only the JSON lines: anything else printing there is moved to stderr
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        System.setOut(System.err);

        SparkSession spark = SparkSession.builder()
                .appName("sluice-tpch-spark-peer")
                .master("local[2]")
                .config("spark.sql.shuffle.partitions", "4")
                .config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.sql.datetime.java8API.enabled", "true")
                .config("spark.sql.warehouse.dir", Files.createTempDirectory("spark-peer-warehouse").toString())
                .getOrCreate();
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread thread = new Thread(r, "spark-peer-query");
            thread.setDaemon(true);
            return thread;
        });
        try {
            spark.sparkContext().setLogLevel("WARN");
            registerTables(spark, data);
            for (Path query : queries) {
                out.println(JSON.writeValueAsString(run(spark, executor, query, runs, warmups, timeoutSeconds)));
            }
        } finally {
            executor.shutdownNow();
            spark.stop();
        }
    }

    private static List<Path> queryFiles(String argument) throws IOException {
        Path single = Path.of(argument);
        if (Files.isDirectory(single)) {
            try (Stream<Path> files = Files.list(single)) {
                return files.filter(f -> QUERY_FILE.matcher(f.getFileName().toString()).matches())
                        .sorted(Comparator.comparingInt(SparkTpchRunner::queryNumber))
                        .toList();
            }
        }
        return Arrays.stream(argument.split(",")).map(String::trim).map(Path::of).toList();
    }

    private static void registerTables(SparkSession spark, Path data) throws IOException {
        try (Stream<Path> tables = Files.list(data)) {
            for (Path table : tables.filter(Files::isDirectory).sorted().toList()) {
                spark.read().parquet(table.toAbsolutePath().toString())
                        .createOrReplaceTempView(table.getFileName().toString());
            }
        }
    }

    private static ObjectNode run(SparkSession spark, ExecutorService executor, Path file, int runs, int warmups,
                                  long timeoutSeconds) {
        ObjectNode line = JSON.createObjectNode();
        int number = queryNumber(file);
        if (number >= 0) {
            line.put("query", number);
        } else {
            line.put("query_file", file.toString());
        }
        try {
            String sql = queryText(Files.readString(file));
            double[] times = new double[runs];
            List<Row> rows = List.of();
            for (int run = -warmups; run < runs; run++) {
                long start = System.nanoTime();
                Future<List<Row>> future = executor.submit(() -> spark.sql(sql).collectAsList());
                try {
                    rows = future.get(timeoutSeconds, TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    spark.sparkContext().cancelAllJobs();
                    future.cancel(true);
                    line.put("error", "over " + timeoutSeconds + " s");
                    return line;
                }
                if (run >= 0) {
                    times[run] = (System.nanoTime() - start) / 1e6;
                }
            }
            Arrays.sort(times);
            line.put("median_ms", times[times.length / 2]);
            line.put("rows", rows.size());
            ArrayNode answer = line.putArray("answer");
            for (Row row : rows) {
                ArrayNode values = answer.addArray();
                for (int i = 0; i < row.length(); i++) {
                    addNormalized(values, row.get(i));
                }
            }
        } catch (ExecutionException e) {
            line.put("error", firstLine(e.getCause()));
        } catch (Exception e) {
            line.put("error", firstLine(e));
        }
        return line;
    }

    /** The statement without '--' comment lines and without its closing ';'. */
    static String queryText(String file) {
        StringBuilder sql = new StringBuilder();
        for (String line : file.split("\n")) {
            if (!line.strip().startsWith("--")) {
                sql.append(line).append('\n');
            }
        }
        String text = sql.toString().strip();
        while (text.endsWith(";")) {
            text = text.substring(0, text.length() - 1).strip();
        }
        return text;
    }

    /** The comparable form of io.sluice.tpch.Answers (kept in step with it by hand: this build stands alone). */
    private static void addNormalized(ArrayNode values, Object value) {
        if (value == null) {
            values.addNull();
        } else if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            values.add(((Number) value).longValue());
        } else if (value instanceof BigDecimal decimal) {
            BigDecimal stripped = decimal.stripTrailingZeros();
            if (stripped.scale() <= 0) {
                values.add(stripped.toBigIntegerExact().longValue());
            } else {
                values.add(stripped.toPlainString());
            }
        } else if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                values.add((long) d);
            } else {
                values.add(new BigDecimal(d).round(SIGNIFICANT).stripTrailingZeros().toPlainString());
            }
        } else {
            values.add(value.toString());
        }
    }

    private static int queryNumber(Path file) {
        Matcher m = QUERY_FILE.matcher(file.getFileName().toString());
        return m.matches() ? Integer.parseInt(m.group(1)) : -1;
    }

    private static String firstLine(Throwable t) {
        String message = t.getMessage() == null ? t.getClass().getName() : t.getMessage();
        int newline = message.indexOf('\n');
        return (newline < 0 ? message : message.substring(0, newline)).strip();
    }
}
