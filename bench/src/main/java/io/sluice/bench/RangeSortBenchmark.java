package io.sluice.bench;

import io.sluice.api.LocalCluster;
import io.sluice.api.Session;
import io.sluice.coordinator.scheduler.DagScheduler;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;

/**
 * Global ORDER BY on an embedded cluster of two workers, range-partitioned (range repartition,
 * per-partition sort, ordered gather) against gather-and-sort ({@code SET
 * sluice.sort.range-partitioned = false}), in the same run over the same Parquet files. Run by hand,
 * never in the test suite:
 *
 * <pre>
 * java -Xmx8g -cp ... io.sluice.bench.RangeSortBenchmark [rows=20000000] [dir=/tmp/sluice-range-sort] [runs=3] [verbose=false]
 * </pre>
 *
 * <p>Each query runs as {@code EXPLAIN ANALYZE}: the result stage's blocks are fetched by the
 * coordinator and counted, not decoded into Java rows, so the time is the engine's (the same
 * collection cost for both plans). Prints each run's time, the medians and their ratio; with
 * {@code verify=true} (the default) the range-partitioned result is also read in full and checked
 * for global order and against DuckDB. Data: a
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
        boolean verify = true;
        for (String arg : args) {
            String[] kv = arg.split("=", 2);
            switch (kv[0]) {
                case "rows" -> rows = Long.parseLong(kv[1]);
                case "dir" -> dir = Path.of(kv[1]);
                case "runs" -> runs = Integer.parseInt(kv[1]);
                case "verbose" -> verbose = Boolean.parseBoolean(kv[1]);
                case "verify" -> verify = Boolean.parseBoolean(kv[1]);
                default -> throw new IllegalArgumentException("unknown argument " + arg + "; use rows=, dir=, runs=, verbose=, verify=");
            }
        }
        Path data = dir.resolve("numeric-rows-" + rows);
        generate(data, rows);
        String sql = "SELECT k, x, v FROM t ORDER BY k, x";
        try (Session session = Session.local(LocalCluster.Options.of(2).withShufflePartitions(8))) {
            session.sql("CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION '" + data + "'");
            Timeline timeline = new Timeline();
            session.localCluster().coordinator().addStageListener(timeline);
            List<Double> ranged = new ArrayList<>();
            List<Double> gathered = new ArrayList<>();
            List<Double> rangedCpu = new ArrayList<>();
            List<Double> gatheredCpu = new ArrayList<>();
            for (int r = 0; r < runs; r++) {
                double[] a = time(session, "", sql, rows, verbose, timeline);
                double[] b = time(session, "SET sluice.sort.range-partitioned = false; ", sql, rows, verbose, timeline);
                ranged.add(a[0]);
                rangedCpu.add(a[1]);
                gathered.add(b[0]);
                gatheredCpu.add(b[1]);
                System.out.printf(Locale.ROOT, "run %d: range-partitioned %.0f ms (cpu %.1f s; %s), gather-and-sort %.0f ms "
                        + "(cpu %.1f s; %s), ratio %.2fx, load average %.1f%n", r + 1, a[0], a[1], timeline.phases(a),
                        b[0], b[1], timeline.phasesOf(b), b[0] / a[0],
                        java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            }
            if (verify) {
                verify(session, sql, data);
            }
            double a = Medians.of(ranged);
            double b = Medians.of(gathered);
            System.out.printf(Locale.ROOT, "%d rows, 2 workers, 8 partitions: range-partitioned median %.0f ms, "
                    + "gather-and-sort median %.0f ms, speed-up %.2fx (median process cpu: %.1f s vs %.1f s)%n", rows, a, b,
                    b / a, Medians.of(rangedCpu), Medians.of(gatheredCpu));
        }
    }

    /**
     * One EXPLAIN ANALYZE run, after checking it returned every row: the query's own time as
     * reported, the CPU time this process used meanwhile (all threads, GC and JIT included: a
     * figure that other processes' load inflates far less than wall time), and the index of the
     * run's first event in {@code timeline}.
     */
    static double[] time(Session session, String set, String sql, long rows, boolean verbose, Timeline timeline) {
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        int firstEvent = timeline.mark();
        long cpu = os.getProcessCpuTime();
        List<List<Object>> lines = session.sql(set + "EXPLAIN ANALYZE " + sql).collect().rows();
        double cpuSeconds = (os.getProcessCpuTime() - cpu) / 1e9;
        int lastEvent = timeline.mark();
        if (verbose) {
            lines.forEach(line -> System.out.println(line.get(0)));
        }
        String first = String.valueOf(lines.get(0).get(0));
        Matcher m = QUERY_TIME.matcher(first);
        if (!m.find() || Long.parseLong(m.group(1)) != rows) {
            throw new IllegalStateException("unexpected EXPLAIN ANALYZE header: " + first);
        }
        return new double[] {Double.parseDouble(m.group(2)), cpuSeconds, firstEvent, lastEvent};
    }

    /**
     * When each stage of a query was handed out and when it finished, from the scheduler's
     * listener: the per-phase wall times. A sampling run (stage id from
     * {@link DagScheduler#SAMPLE_STAGE_OFFSET}) reports no completion; it lasts until the next
     * stage is handed out (so it includes computing the boundaries).
     */
    static final class Timeline implements DagScheduler.StageListener {
        private final List<long[]> events = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public void stageSubmitted(String jobId, int stageId, io.sluice.shuffle.ShuffleWriterExec plan, List<Integer> partitions) {
            events.add(new long[] {System.nanoTime(), stageId, 0});
        }

        @Override
        public void stageCompleted(String jobId, int stageId) {
            events.add(new long[] {System.nanoTime(), stageId, 1});
        }

        int mark() {
            return events.size();
        }

        String phases(double[] run) {
            return phasesOf(run);
        }

        /** "sample 1.2 s, stage 0 3.4 s, ..." for the events of one run (indexes run[2] to run[3]). */
        String phasesOf(double[] run) {
            List<long[] > list = events.subList((int) run[2], (int) run[3]);
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < list.size(); i++) {
                long[] e = list.get(i);
                if (e[2] != 0) {
                    continue;
                }
                long end = -1;
                for (int j = i + 1; j < list.size() && end < 0; j++) {
                    long[] f = list.get(j);
                    if (f[1] == e[1] && f[2] == 1 || e[1] >= DagScheduler.SAMPLE_STAGE_OFFSET && f[2] == 0) {
                        end = f[0];
                    }
                }
                if (out.length() > 0) {
                    out.append(", ");
                }
                String name = e[1] >= DagScheduler.SAMPLE_STAGE_OFFSET ? "sample" : "stage " + e[1];
                out.append(name).append(end < 0 ? " (no end seen)" : String.format(Locale.ROOT, " %.1f s", (end - e[0]) / 1e9));
            }
            return out.toString();
        }
    }

    /**
     * Runs the range-partitioned query for real and reads its Arrow result as a stream: the rows
     * must be in (k, x) order, and their count, sum(v) and sum(row number * k) must equal DuckDB's
     * over the same files (row numbers from DuckDB's own ORDER BY k, x; rows tied on (k, x) share
     * k, so the weighted sum does not depend on how ties are broken).
     */
    static void verify(Session session, String sql, Path data) throws Exception {
        long start = System.nanoTime();
        byte[] ipc = session.localCluster().runSql(sql);
        long rows = 0;
        BigInteger sumV = BigInteger.ZERO;
        BigInteger weighted = BigInteger.ZERO;
        long lastK = Long.MIN_VALUE;
        double lastX = Double.NEGATIVE_INFINITY;
        try (BufferAllocator allocator = new RootAllocator();
                ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(ipc), allocator)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            while (reader.loadNextBatch()) {
                BigIntVector k = (BigIntVector) root.getVector("k");
                Float8Vector x = (Float8Vector) root.getVector("x");
                BigIntVector v = (BigIntVector) root.getVector("v");
                long batchV = 0;
                for (int i = 0; i < root.getRowCount(); i++) {
                    long kk = k.get(i);
                    double xx = x.get(i);
                    if (kk < lastK || (kk == lastK && xx < lastX)) {
                        throw new IllegalStateException("row " + rows + " (" + kk + ", " + xx + ") sorts before the row above it ("
                                + lastK + ", " + lastX + ")");
                    }
                    lastK = kk;
                    lastX = xx;
                    rows++;
                    batchV += v.get(i);
                    weighted = weighted.add(BigInteger.valueOf(rows).multiply(BigInteger.valueOf(kk)));
                }
                sumV = sumV.add(BigInteger.valueOf(batchV));
            }
        }
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:"); Statement s = duck.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*), sum(v)::HUGEINT, sum(rn::HUGEINT * k) FROM (SELECT k, v, "
                        + "row_number() OVER (ORDER BY k, x) AS rn FROM read_parquet('" + data + "/*.parquet'))")) {
            r.next();
            long duckRows = r.getLong(1);
            BigInteger duckV = new BigInteger(r.getString(2));
            BigInteger duckWeighted = new BigInteger(r.getString(3));
            if (duckRows != rows || !duckV.equals(sumV) || !duckWeighted.equals(weighted)) {
                throw new IllegalStateException("differs from DuckDB: rows " + rows + " vs " + duckRows + ", sum(v) " + sumV
                        + " vs " + duckV + ", sum(rn * k) " + weighted + " vs " + duckWeighted);
            }
        }
        System.out.printf(Locale.ROOT, "verified: %d rows globally ordered by (k, x); count, sum(v) and sum(rn * k) equal "
                + "DuckDB's (%.0f s)%n", rows, (System.nanoTime() - start) / 1e9);
    }

    /** The sort's data: a BIGINT key with many duplicates, a DOUBLE second key and a BIGINT payload (see the class comment). */
    static void generate(Path data, long rows) throws Exception {
        writeParquet(data, rows, "(i * 2654435761) % " + Math.max(1, rows / 4) + " AS k, "
                + "CAST((i * 40503) % 1000003 AS DOUBLE) / 7 AS x, i AS v");
    }

    /**
     * Writes {@code rows} rows of {@code columns} (a DuckDB select list over the row number
     * {@code i}) as 8 Parquet files under {@code data}, unless a finished copy is already there
     * (marked by {@code _SUCCESS}).
     */
    static void writeParquet(Path data, long rows, String columns) throws Exception {
        if (Files.exists(data.resolve("_SUCCESS"))) {
            return;
        }
        Files.createDirectories(data);
        long perFile = (rows + 7) / 8;
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:"); Statement s = duck.createStatement()) {
            for (int f = 0; f < 8; f++) {
                long from = f * perFile;
                long to = Math.min(rows, from + perFile);
                s.execute("COPY (SELECT " + columns + " FROM range(" + from + ", " + to + ") r(i)) TO '"
                        + data.resolve("part-" + f + ".parquet") + "' (FORMAT PARQUET)");
            }
        }
        Files.createFile(data.resolve("_SUCCESS"));
    }
}
