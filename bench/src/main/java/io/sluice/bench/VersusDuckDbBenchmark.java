package io.sluice.bench;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Like;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.expr.Substring;
import io.sluice.logical.plan.JoinType;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.TaskContext;
import io.sluice.operators.aggregate.HashAggregateExec;
import io.sluice.operators.basic.ProjectionExec;
import io.sluice.operators.filter.FilterExec;
import io.sluice.operators.join.HashJoinExec;
import io.sluice.operators.sort.SortExec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * The execution-core operator cases of issue 7, each run on Sluice (single-partition physical
 * operators, built as the physical planner builds them, over in-memory Arrow batches of 8192 rows)
 * and on DuckDB (JDBC, {@code SET threads=1}) over the same data, in one run that prints
 * {@code case, rows, sluice_ms, duckdb_ms, ratio} at the end: {@code bin/bench-vs-duckdb}.
 *
 * <p>The data is a pure function of the row number, computed by the same formulas in Java (into
 * Arrow vectors) and in DuckDB SQL (into in-memory tables, before timing); the run checks column
 * sums on both sides before it measures. Table {@code t} has 10M rows: {@code k1k} (int, 1K
 * values), {@code k1m} (int, 1M values, each 10 times), {@code s1k}/{@code s1m} (strings of those
 * keys), {@code v} (bigint 0..999), {@code x} (double in [0, 1)); table {@code d} has 1M rows:
 * {@code id} (int, unique), {@code w} (bigint), {@code name} (string).
 *
 * <p>What is timed: on Sluice, executing the plan and draining it, with every output batch made
 * Arrow ({@link Batch#root()}) and closed; on DuckDB, {@code executeQuery} until the first row is
 * read: DuckDB's JDBC result is materialized (not streamed) by default, so the whole result is
 * built in DuckDB's memory and only one row crosses JDBC. Sluice's wall time is JMH's (single shot
 * per iteration, {@value #WARMUPS} warm-ups, {@value #MEASUREMENTS} measured, mean); DuckDB's is
 * the median of {@value #MEASUREMENTS} after {@value #WARMUPS} warm-ups. Both sides also record
 * the process CPU time of each run (median): on a shared machine wall time mostly measures the
 * wait for a core, and CPU time (GC and JIT threads included on the Sluice side) is the steadier
 * comparison.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = VersusDuckDbBenchmark.WARMUPS)
@Measurement(iterations = VersusDuckDbBenchmark.MEASUREMENTS)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Dio.netty.noUnsafe=false",
        "-Xms5g", "-Xmx5g", "-XX:MaxDirectMemorySize=4g", "-XX:+UseParallelGC"})
public class VersusDuckDbBenchmark {
    static final int WARMUPS = 1;
    static final int MEASUREMENTS = 3;
    static final int ROWS = 10_000_000;
    static final int BUILD_ROWS = 1_000_000;
    static final int BATCH = 8192;

    // The data, as SQL over range(n) r(i) and as the same formulas in Java (all in 64-bit arithmetic).
    static final String T_SQL = "CREATE TABLE t AS SELECT"
            + " CAST(((i * 2654435761) >> 7) % 1000 AS INTEGER) AS k1k,"
            + " CAST((i * 2654435761) % 1000000 AS INTEGER) AS k1m,"
            + " 'key-' || CAST(((i * 2654435761) >> 7) % 1000 AS VARCHAR) AS s1k,"
            + " 'key-' || CAST((i * 2654435761) % 1000000 AS VARCHAR) AS s1m,"
            + " CAST((i * 1103515245 + 12345) % 1000 AS BIGINT) AS v,"
            + " ((i * 40503) % 65536) / 65536.0 AS x"
            + " FROM range(" + ROWS + ") r(i)";
    static final String D_SQL = "CREATE TABLE d AS SELECT CAST(i AS INTEGER) AS id, CAST((i * 3) % 1000 AS BIGINT) AS w,"
            + " 'name-' || CAST(i AS VARCHAR) AS name FROM range(" + BUILD_ROWS + ") r(i)";

    static long k1k(long i) {
        return ((i * 2654435761L) >> 7) % 1000;
    }

    static long k1m(long i) {
        return (i * 2654435761L) % 1000000;
    }

    static long v(long i) {
        return (i * 1103515245L + 12345) % 1000;
    }

    static double x(long i) {
        return ((i * 40503) % 65536) / 65536.0;
    }

    /** The cases: name, DuckDB query (Sluice builds the same operators in its benchmark method). */
    static final Map<String, String> CASES = new LinkedHashMap<>();

    static {
        CASES.put("filterProject", "SELECT v + k1k AS e1, v * 2 AS e2, x * 1.5 + 1 AS e3, substring(s1m, 5, 3) AS e4 FROM t"
                + " WHERE k1k < 900 AND x > 0.1 AND s1m LIKE '%5%'");
        CASES.put("aggIntKey1K", "SELECT k1k, sum(v) AS sv, count(*) AS n, max(x) AS mx FROM t GROUP BY k1k");
        CASES.put("aggIntKey1M", "SELECT k1m, sum(v) AS sv, count(*) AS n, max(x) AS mx FROM t GROUP BY k1m");
        CASES.put("aggStringKey1K", "SELECT s1k, sum(v) AS sv, count(*) AS n, max(x) AS mx FROM t GROUP BY s1k");
        CASES.put("aggStringKey1M", "SELECT s1m, sum(v) AS sv, count(*) AS n, max(x) AS mx FROM t GROUP BY s1m");
        CASES.put("hashJoin", "SELECT d.id, d.w, d.name, t.k1m, t.v FROM d JOIN t ON d.id = t.k1m");
        CASES.put("sort", "SELECT k1k, s1m, v, x FROM t ORDER BY k1k, s1m");
    }

    static final Schema T_SCHEMA = Schema.of(new Field("k1k", DataType.INT32), new Field("k1m", DataType.INT32),
            new Field("s1k", DataType.UTF8), new Field("s1m", DataType.UTF8), new Field("v", DataType.INT64),
            new Field("x", DataType.FLOAT64));
    static final Schema D_SCHEMA = Schema.of(new Field("id", DataType.INT32), new Field("w", DataType.INT64),
            new Field("name", DataType.UTF8));

    private BufferAllocator allocator;
    private List<VectorSchemaRoot> t;
    private List<VectorSchemaRoot> d;
    private long lastRows;
    private String lastCase;
    /** Process CPU time of each invocation (operators, GC and JIT threads included). */
    private final List<Double> cpuMillis = new ArrayList<>();

    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** The median of the last {@code n} values. */
    static double medianOfLast(List<Double> values, int n) {
        List<Double> last = values.subList(Math.max(0, values.size() - n), values.size());
        return last.isEmpty() ? Double.NaN : Medians.of(last);
    }

    @Setup(Level.Trial)
    public void setup() {
        allocator = new RootAllocator(Long.MAX_VALUE);
        t = generateT(allocator);
        d = generateD(allocator);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        t.forEach(VectorSchemaRoot::close);
        d.forEach(VectorSchemaRoot::close);
        allocator.close();
        String file = System.getProperty("sluice.bench.rows");
        if (file != null && lastCase != null) {
            Files.writeString(Path.of(file), lastCase + " " + lastRows + " " + medianOfLast(cpuMillis, MEASUREMENTS) + "\n", StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        }
    }

    static List<VectorSchemaRoot> generateT(BufferAllocator allocator) {
        List<VectorSchemaRoot> out = new ArrayList<>();
        for (int from = 0; from < ROWS; from += BATCH) {
            int n = Math.min(BATCH, ROWS - from);
            VectorSchemaRoot root = VectorSchemaRoot.create(T_SCHEMA.toArrow(), allocator);
            root.allocateNew();
            IntVector k1k = (IntVector) root.getVector(0);
            IntVector k1m = (IntVector) root.getVector(1);
            VarCharVector s1k = (VarCharVector) root.getVector(2);
            VarCharVector s1m = (VarCharVector) root.getVector(3);
            BigIntVector v = (BigIntVector) root.getVector(4);
            Float8Vector x = (Float8Vector) root.getVector(5);
            for (int j = 0; j < n; j++) {
                long i = from + j;
                k1k.setSafe(j, (int) k1k(i));
                k1m.setSafe(j, (int) k1m(i));
                s1k.setSafe(j, ("key-" + k1k(i)).getBytes(StandardCharsets.UTF_8));
                s1m.setSafe(j, ("key-" + k1m(i)).getBytes(StandardCharsets.UTF_8));
                v.setSafe(j, v(i));
                x.setSafe(j, x(i));
            }
            root.setRowCount(n);
            out.add(root);
        }
        return out;
    }

    static List<VectorSchemaRoot> generateD(BufferAllocator allocator) {
        List<VectorSchemaRoot> out = new ArrayList<>();
        for (int from = 0; from < BUILD_ROWS; from += BATCH) {
            int n = Math.min(BATCH, BUILD_ROWS - from);
            VectorSchemaRoot root = VectorSchemaRoot.create(D_SCHEMA.toArrow(), allocator);
            root.allocateNew();
            IntVector id = (IntVector) root.getVector(0);
            BigIntVector w = (BigIntVector) root.getVector(1);
            VarCharVector name = (VarCharVector) root.getVector(2);
            for (int j = 0; j < n; j++) {
                long i = from + j;
                id.setSafe(j, (int) i);
                w.setSafe(j, (i * 3) % 1000);
                name.setSafe(j, ("name-" + i).getBytes(StandardCharsets.UTF_8));
            }
            root.setRowCount(n);
            out.add(root);
        }
        return out;
    }

    private ExecutionPlan t(String... names) {
        int[] columns = new int[names.length];
        for (int i = 0; i < names.length; i++) {
            columns[i] = T_SCHEMA.indexOf(names[i]);
        }
        return new ArrowSource(t, T_SCHEMA, columns);
    }

    private long drain(String name, ExecutionPlan plan) {
        long cpuStart = processCpuNanos();
        long rows = 0;
        try (BufferAllocator child = allocator.newChildAllocator("bench", 0, Long.MAX_VALUE);
                BatchStream stream = plan.execute(0, new TaskContext("bench", child, BATCH, Map.of()))) {
            Batch b;
            while ((b = stream.next()) != null) {
                b.root(); // the output as Arrow, as the next stage or the client reads it
                rows += b.rowCount();
                b.close();
            }
        }
        cpuMillis.add((processCpuNanos() - cpuStart) / 1e6);
        lastCase = name;
        lastRows = rows;
        return rows;
    }

    private static Expr col(String name) {
        return new Column(name);
    }

    /** WHERE k1k < 900 AND x > 0.1 AND s1m LIKE '%5%', then four expressions. */
    @Benchmark
    public long filterProject() {
        Expr predicate = new Binary(BinaryOp.AND, new Binary(BinaryOp.AND,
                new Binary(BinaryOp.LT, col("k1k"), Literal.of(900)),
                new Binary(BinaryOp.GT, col("x"), Literal.of(0.1))),
                new Like(col("s1m"), "%5%", false, false));
        ExecutionPlan filter = new FilterExec(t("k1k", "s1m", "v", "x"), predicate);
        List<Expr> exprs = List.of(new Alias(new Binary(BinaryOp.ADD, col("v"), col("k1k")), "e1"),
                new Alias(new Binary(BinaryOp.MULTIPLY, col("v"), Literal.of(2)), "e2"),
                new Alias(new Binary(BinaryOp.ADD, new Binary(BinaryOp.MULTIPLY, col("x"), Literal.of(1.5)),
                        Literal.of(1.0)), "e3"),
                new Alias(new Substring(col("s1m"), 5, 3L), "e4"));
        return drain("filterProject", new ProjectionExec(filter, exprs));
    }

    private long aggregate(String name, String key) {
        List<Expr> aggs = List.of(new Alias(new AggregateCall(AggregateFunction.SUM, col("v"), null), "sv"),
                new Alias(new AggregateCall(AggregateFunction.COUNT_STAR, null, null), "n"),
                new Alias(new AggregateCall(AggregateFunction.MAX, col("x"), null), "mx"));
        HashAggregateExec partial = HashAggregateExec.partial(t(key, "v", "x"), List.of(col(key)), aggs);
        return drain(name, HashAggregateExec.finalPhase(partial, partial));
    }

    @Benchmark
    public long aggIntKey1K() {
        return aggregate("aggIntKey1K", "k1k");
    }

    @Benchmark
    public long aggIntKey1M() {
        return aggregate("aggIntKey1M", "k1m");
    }

    @Benchmark
    public long aggStringKey1K() {
        return aggregate("aggStringKey1K", "s1k");
    }

    @Benchmark
    public long aggStringKey1M() {
        return aggregate("aggStringKey1M", "s1m");
    }

    /** d JOIN t ON id = k1m: builds d (1M rows, the left, as the planner puts an inner join's build side), probes t. */
    @Benchmark
    public long hashJoin() {
        ExecutionPlan build = new ArrowSource(d, D_SCHEMA, new int[] {0, 1, 2});
        return drain("hashJoin", new HashJoinExec(build, t("k1m", "v"), JoinType.INNER, List.of(col("id")),
                List.of(col("k1m")), null, HashJoinExec.Mode.PARTITIONED));
    }

    @Benchmark
    public long sort() {
        return drain("sort", new SortExec(t("k1k", "s1m", "v", "x"), List.of(SortKey.asc(col("k1k")),
                SortKey.asc(col("s1m"))), SortExec.NO_FETCH, false));
    }

    // ---- the side-by-side run ----

    /** Runs the Sluice cases (JMH) and the DuckDB cases, then prints the ratio table. Args: an optional case regex. */
    public static void main(String[] args) throws Exception {
        String filter = args.length > 0 ? args[0] : ".*";
        Path rowsFile = Files.createTempFile("sluice-bench-rows", ".txt");
        Map<String, Double> duck = new LinkedHashMap<>();
        Map<String, Long> duckRows = new LinkedHashMap<>();
        Map<String, Double> duckCpu = new LinkedHashMap<>();
        runDuckDb(filter, duck, duckCpu, duckRows);
        Options options = new OptionsBuilder()
                .include(VersusDuckDbBenchmark.class.getName() + "\\.(" + filter + ")$")
                .jvmArgsAppend("-Dsluice.bench.rows=" + rowsFile)
                .build();
        Map<String, Double> sluice = new LinkedHashMap<>();
        for (RunResult r : new Runner(options).run()) {
            String label = r.getParams().getBenchmark();
            sluice.put(label.substring(label.lastIndexOf('.') + 1), r.getPrimaryResult().getScore());
        }
        Map<String, Long> sluiceRows = new LinkedHashMap<>();
        Map<String, Double> sluiceCpu = new LinkedHashMap<>();
        for (String line : Files.readAllLines(rowsFile)) {
            String[] parts = line.split(" ");
            sluiceRows.put(parts[0], Long.parseLong(parts[1]));
            sluiceCpu.put(parts[0], Double.parseDouble(parts[2]));
        }
        Files.deleteIfExists(rowsFile);
        System.out.println();
        System.out.println("case, rows, sluice_ms, duckdb_ms, ratio, sluice_cpu_ms, duckdb_cpu_ms, cpu_ratio");
        for (String name : CASES.keySet()) {
            if (!sluice.containsKey(name) || !duck.containsKey(name)) {
                continue;
            }
            Long sr = sluiceRows.get(name);
            long dr = duckRows.get(name);
            String rows = sr == null || sr == dr ? Long.toString(dr) : "MISMATCH sluice " + sr + " duckdb " + dr;
            double sc = sluiceCpu.getOrDefault(name, Double.NaN);
            double dc = duckCpu.get(name);
            System.out.printf(Locale.ROOT, "%s, %s, %.0f, %.0f, %.2f, %.0f, %.0f, %.2f%n", name, rows, sluice.get(name),
                    duck.get(name), sluice.get(name) / duck.get(name), sc, dc, sc / dc);
        }
    }

    static void runDuckDb(String filter, Map<String, Double> times, Map<String, Double> cpu, Map<String, Long> rows)
            throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute("SET threads=1");
            s.execute(T_SQL);
            s.execute(D_SQL);
            checkSameData(s);
            for (Map.Entry<String, String> e : CASES.entrySet()) {
                if (!e.getKey().matches(filter)) {
                    continue;
                }
                double[] ms = new double[MEASUREMENTS];
                double[] cpuMs = new double[MEASUREMENTS];
                for (int i = 0; i < WARMUPS + MEASUREMENTS; i++) {
                    long cpuStart = processCpuNanos();
                    long start = System.nanoTime();
                    // the whole result materialized in DuckDB (not streamed); only its first row crosses JDBC
                    try (ResultSet r = s.executeQuery(e.getValue())) {
                        r.next();
                    }
                    long elapsed = System.nanoTime() - start;
                    long cpuElapsed = processCpuNanos() - cpuStart;
                    if (i >= WARMUPS) {
                        ms[i - WARMUPS] = elapsed / 1e6;
                        cpuMs[i - WARMUPS] = cpuElapsed / 1e6;
                    }
                }
                times.put(e.getKey(), Medians.sortInPlace(ms));
                cpu.put(e.getKey(), Medians.sortInPlace(cpuMs));
                try (ResultSet r = s.executeQuery("SELECT count(*) FROM (" + e.getValue() + ")")) {
                    r.next();
                    rows.put(e.getKey(), r.getLong(1));
                }
                System.out.printf(Locale.ROOT, "duckdb %s: wall %s ms, cpu %s ms%n", e.getKey(), Arrays.toString(ms),
                        Arrays.toString(cpuMs));
            }
        }
    }

    /** Column sums of DuckDB's tables against the Java formulas: both sides hold the same data. */
    static void checkSameData(Statement s) throws SQLException {
        long k1k = 0;
        long k1m = 0;
        long v = 0;
        double x = 0;
        long s1m = 0;
        for (long i = 0; i < ROWS; i++) {
            k1k += k1k(i);
            k1m += k1m(i);
            v += v(i);
            x += x(i);
            s1m += ("key-" + k1m(i)).length();
        }
        try (ResultSet r = s.executeQuery("SELECT sum(k1k), sum(k1m), sum(v), sum(x), sum(length(s1m)) FROM t")) {
            r.next();
            if (r.getLong(1) != k1k || r.getLong(2) != k1m || r.getLong(3) != v || Math.abs(r.getDouble(4) - x) > 1e-3
                    || r.getLong(5) != s1m) {
                throw new IllegalStateException("DuckDB's data differs from the Java formulas: " + r.getLong(1) + " "
                        + r.getLong(2) + " " + r.getLong(3) + " " + r.getDouble(4) + " " + r.getLong(5) + " vs " + k1k
                        + " " + k1m + " " + v + " " + x + " " + s1m);
            }
        }
    }
}
