package io.sluice.operators;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * Where one map task's shuffle output lives: the worker and its shuffle server's address, and the
 * bytes written for each reduce partition (0 means an empty block that need not be fetched).
 * {@code published} holds what the task's operators published for the coordinator
 * ({@link TaskContext#publish}), e.g. partial runtime filters; the scheduler takes it out before
 * the status is registered for readers.
 */
public record MapStatus(String workerId, String host, int port, long[] bytesPerPartition, Map<String, Object> published) {
    public MapStatus {
        requireNonNull(workerId, "workerId is null");
        requireNonNull(host, "host is null");
        requireNonNull(bytesPerPartition, "bytesPerPartition is null");
        published = Map.copyOf(published);
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("bad port " + port);
        }
    }

    /** A status with nothing published. */
    public MapStatus(String workerId, String host, int port, long[] bytesPerPartition) {
        this(workerId, host, port, bytesPerPartition, Map.of());
    }

    /** The same status without what was published. */
    public MapStatus withoutPublished() {
        return published.isEmpty() ? this : new MapStatus(workerId, host, port, bytesPerPartition);
    }

    public long totalBytes() {
        long total = 0;
        for (long b : bytesPerPartition) {
            total += b;
        }
        return total;
    }
}
