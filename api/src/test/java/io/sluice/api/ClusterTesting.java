package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.coordinator.QueryConfig;
import io.sluice.testfixtures.DuckDbOracle;
import io.sluice.worker.Worker;

/** Checks shared by the embedded-cluster tests. */
final class ClusterTesting {
    private ClusterTesting() {
    }

    /**
     * Options for a cluster whose SQL reads as DuckDB's ({@code sluice.sql.dialect = ansi}): for the
     * tests that send the same SQL text to DuckDB and compare (double quotes name columns, NULLs sort
     * last, casts round), where Spark's default dialect would read that text otherwise.
     */
    static LocalCluster.Options duckDbDialect(LocalCluster.Options options) {
        return options.withQueryDefaults(QueryConfig.defaults().with("sluice.sql.dialect", "ansi"));
    }

    /**
     * Every node's root allocator is empty: no task or result leaked an Arrow buffer. A failed
     * query answers the client while its job's other attempts may still run (they stop at their
     * cancel, moments later); the check waits, bounded, until the coordinator knows of no running
     * attempt, so buffers such an attempt holds, or allocates after a first look found none, are
     * not taken for a leak.
     */
    static void assertNoLeakedBuffers(Session session) {
        LocalCluster cluster = session.localCluster();
        // a broadcast join's shared table holds its Arrow vectors until the job's end reaches the
        // worker (SharedBuildCache.stagesEnded), moments after the result: wait for that, bounded
        long deadline = System.currentTimeMillis() + 10_000;
        while (System.currentTimeMillis() < deadline && !buffersReleased(cluster)) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        assertThat(cluster.coordinator().allocator().getAllocatedMemory()).as("coordinator").isZero();
        for (Worker w : cluster.workers()) {
            if (!w.isClosed()) {
                assertThat(w.allocator().getAllocatedMemory()).as(w.workerId()).isZero();
            }
        }
    }

    /**
     * The same, once the tasks a failed or cancelled query left running have stopped: they free
     * their buffers within moments of the failure, so the check waits for that, bounded.
     */
    static void awaitNoLeakedBuffers(Session session) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 10_000;
        while (System.currentTimeMillis() < deadline && !buffersReleased(session.localCluster())) {
            Thread.sleep(20);
        }
        assertNoLeakedBuffers(session);
    }

    private static boolean buffersReleased(LocalCluster cluster) {
        return noAttemptRunning(cluster) && cluster.coordinator().allocator().getAllocatedMemory() == 0 && cluster.workers().stream()
                .filter(w -> !w.isClosed()).allMatch(w -> w.allocator().getAllocatedMemory() == 0);
    }

    /** No task attempt holds a slot (a stopped coordinator runs none) and no worker runs or queues one. */
    private static boolean noAttemptRunning(LocalCluster cluster) {
        try {
            if (cluster.coordinator().load().runningTasks() > 0) {
                return false;
            }
        } catch (RuntimeException stopped) {
            // a stopped coordinator answers nothing and dispatches nothing
        }
        return cluster.workers().stream().filter(w -> !w.isClosed()).allMatch(w -> w.activeTasks() == 0);
    }

    /** Whether every worker's task pools are closed and nothing is reserved. */
    static boolean memoryReleased(LocalCluster cluster) {
        return cluster.workers().stream().filter(w -> !w.isClosed())
                .allMatch(w -> w.memory().openPools() == 0 && w.memory().reserved() == 0);
    }

    /** Every worker's task memory pools are closed and nothing is reserved (call once its tasks have ended). */
    static void assertMemoryReleased(LocalCluster cluster) {
        for (Worker w : cluster.workers()) {
            if (!w.isClosed()) {
                assertThat(w.memory().openPools()).as("open task pools on " + w.workerId()).isZero();
                assertThat(w.memory().reserved()).as("memory reserved on " + w.workerId()).isZero();
            }
        }
    }

    /** Entries (shuffle directories) under every worker's shuffle root. */
    static long shuffleEntries(LocalCluster cluster) throws java.io.IOException {
        long n = 0;
        for (Worker w : cluster.workers()) {
            try (java.util.stream.Stream<java.nio.file.Path> entries = java.nio.file.Files.list(w.shuffleServer().rootDirectory())) {
                n += entries.count();
            }
        }
        return n;
    }

    /** Table {@code t} in both engines: four CSV files of 5,000 rows, {@code k} one of 17 strings, {@code v} 0 to 19,999. */
    /** The stages part of {@code EXPLAIN sql}'s text: each stage's plan, its shuffle reads and write. */
    static String explainedStages(Session session, String sql) {
        String plan = session.sql("EXPLAIN " + sql).collect().rows().stream()
                .map(row -> String.valueOf(row.get(row.size() - 1))).collect(java.util.stream.Collectors.joining("\n"));
        return plan.substring(plan.indexOf("== Stages =="));
    }

    static void createKeyedCsvTable(DuckDbOracle duck, Session session, java.nio.file.Path data) throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createDirectories(data.resolve("t")); // listing is recursive: a directory of its own
        for (int f = 0; f < 4; f++) {
            duck.execute("COPY (SELECT 'k' || (range % 17) AS k, range AS v FROM range(" + f * 5000 + ", "
                    + (f + 1) * 5000 + ")) TO '" + dir.resolve("part-" + f + ".csv") + "' (FORMAT CSV, HEADER)");
        }
        duck.execute("CREATE VIEW t AS SELECT * FROM read_csv_auto('" + dir + "/*.csv')");
        session.sql("CREATE EXTERNAL TABLE t STORED AS CSV LOCATION '" + dir + "'");
    }

    /** Checks that a test class's cluster leaked no Arrow memory, then stops it (null: nothing to do). */
    static void closeCheckingLeaks(Session session) throws InterruptedException {
        if (session != null) {
            try {
                // a task cancelled by the last test may still be unwinding: it frees its buffers within seconds
                long deadline = System.currentTimeMillis() + 10_000;
                while (System.currentTimeMillis() < deadline && !buffersReleased(session.localCluster())) {
                    Thread.sleep(50);
                }
                assertNoLeakedBuffers(session);
            } finally {
                session.close();
            }
        }
    }

    /** Closes what a test class opened, in order, whichever of them exist. */
    static void closeAll(AutoCloseable... resources) throws Exception {
        for (AutoCloseable r : resources) {
            if (r != null) {
                r.close();
            }
        }
    }
}
