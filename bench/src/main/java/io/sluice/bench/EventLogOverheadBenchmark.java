package io.sluice.bench;

import io.sluice.api.LocalCluster;
import io.sluice.api.Session;
import io.sluice.coordinator.monitor.EventListener;
import io.sluice.coordinator.monitor.EventLogWriter;
import io.sluice.coordinator.monitor.QueryEvent;
import io.sluice.tpch.TpchData;
import io.sluice.tpch.TpchQueries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * The event log's cost on TPC-H (issue 28: within 3%): one embedded cluster, and each query run
 * alternately with the event log off and on ({@link EventLogWriter} switched between queries,
 * after the event bus has delivered the previous query's events), so both modes meet the same JVM
 * warm-up and the same machine load. Prints each query's medians and the ratio of the sums.
 *
 * <p>Usage: {@code EventLogOverheadBenchmark [--sf 1] [--runs 3] [--query 1,3] [--data DIR] [--log DIR]}.
 */
public final class EventLogOverheadBenchmark {
    private EventLogOverheadBenchmark() {
    }

    /** The event log, written only while switched on. */
    private static final class Switched implements EventListener {
        private final EventLogWriter writer;
        private volatile boolean on;
        /** Time the bus thread spent writing the log (its own thread: the queries' cost is only its CPU share). */
        private volatile long writeNanos;

        Switched(EventLogWriter writer) {
            this.writer = writer;
        }

        @Override
        public void onEvent(QueryEvent event) {
            if (on) {
                long start = System.nanoTime();
                writer.onEvent(event);
                writeNanos += System.nanoTime() - start;
            }
        }

        @Override
        public void close() {
            writer.close();
        }
    }

    public static void main(String[] args) throws Exception {
        double sf = 1;
        int runs = 3;
        Path data = Path.of(System.getProperty("user.home"), ".sluice", "tpch");
        Path log = null;
        int[] queries = TpchQueries.all();
        for (int i = 0; i < args.length; i += 2) {
            switch (args[i]) {
                case "--sf" -> sf = Double.parseDouble(args[i + 1]);
                case "--runs" -> runs = Integer.parseInt(args[i + 1]);
                case "--data" -> data = Path.of(args[i + 1]);
                case "--log" -> log = Path.of(args[i + 1]);
                case "--query" -> queries = Arrays.stream(args[i + 1].split(",")).mapToInt(Integer::parseInt).toArray();
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (log == null) {
            log = Files.createTempDirectory("sluice-event-log-");
        }
        TpchData tpch = TpchData.generate(data, sf);
        try (Session session = Session.local(LocalCluster.Options.of(2))) {
            StringBuilder ddl = new StringBuilder();
            for (Map.Entry<String, Path> table : tpch.tables().entrySet()) {
                ddl.append("CREATE EXTERNAL TABLE ").append(table.getKey()).append(" STORED AS PARQUET LOCATION '")
                        .append(table.getValue().toAbsolutePath()).append("';\n");
            }
            session.sql(ddl.toString());
            Switched eventLog = new Switched(EventLogWriter.open(log, System.currentTimeMillis()));
            var bus = session.localCluster().coordinator().events();
            bus.addListener(eventLog);
            double offTotal = 0;
            double onTotal = 0;
            for (int query : queries) {
                String sql = TpchQueries.text(query);
                session.sql(sql).collect(); // warm-up
                double[] off = new double[runs];
                double[] on = new double[runs];
                for (int run = 0; run < runs; run++) {
                    boolean onFirst = run % 2 == 1;
                    for (int half = 0; half < 2; half++) {
                        boolean logging = onFirst == (half == 0);
                        bus.drain(10_000);
                        eventLog.on = logging;
                        long start = System.nanoTime();
                        session.sql(sql).collect();
                        double ms = (System.nanoTime() - start) / 1e6;
                        (logging ? on : off)[run] = ms;
                    }
                }
                bus.drain(10_000);
                eventLog.on = false;
                double offMedian = median(off);
                double onMedian = median(on);
                offTotal += offMedian;
                onTotal += onMedian;
                System.out.printf(Locale.ROOT, "q%-2d off %8.0f ms  on %8.0f ms  ratio %.3f%n", query, offMedian, onMedian,
                        onMedian / offMedian);
            }
            System.out.printf(Locale.ROOT, "total off %.0f ms, on %.0f ms: on/off = %.4f; writing the log took %.1f ms "
                    + "(%.3f%% of the logged queries' time); events dropped %d; log %s%n", offTotal, onTotal,
                    onTotal / offTotal, eventLog.writeNanos / 1e6, eventLog.writeNanos / 1e4 / (onTotal * runs), bus.dropped(), log);
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
