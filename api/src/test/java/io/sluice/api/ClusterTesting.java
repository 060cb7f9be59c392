package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.worker.Worker;

/** Checks shared by the embedded-cluster tests. */
final class ClusterTesting {
    private ClusterTesting() {
    }

    /** Every node's root allocator is empty: no task or result leaked an Arrow buffer. */
    static void assertNoLeakedBuffers(Session session) {
        LocalCluster cluster = session.localCluster();
        assertThat(cluster.coordinator().allocator().getAllocatedMemory()).as("coordinator").isZero();
        for (Worker w : cluster.workers()) {
            if (!w.isClosed()) {
                assertThat(w.allocator().getAllocatedMemory()).as(w.workerId()).isZero();
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

    /** Closes what a test class opened, in order, whichever of them exist. */
    static void closeAll(AutoCloseable... resources) throws Exception {
        for (AutoCloseable r : resources) {
            if (r != null) {
                r.close();
            }
        }
    }
}
