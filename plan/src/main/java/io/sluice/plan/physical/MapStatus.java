package io.sluice.plan.physical;

import static java.util.Objects.requireNonNull;

/**
 * Where one map task's shuffle output lives: the worker and its shuffle server's address, and the
 * bytes written for each reduce partition (0 means an empty block that need not be fetched).
 */
public record MapStatus(String workerId, String host, int port, long[] bytesPerPartition) {
    public MapStatus {
        requireNonNull(workerId, "workerId is null");
        requireNonNull(host, "host is null");
        requireNonNull(bytesPerPartition, "bytesPerPartition is null");
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("bad port " + port);
        }
    }

    public long totalBytes() {
        long total = 0;
        for (long b : bytesPerPartition) {
            total += b;
        }
        return total;
    }
}
