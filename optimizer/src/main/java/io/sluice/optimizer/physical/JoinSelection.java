package io.sluice.optimizer.physical;

import static java.util.Objects.requireNonNull;

/**
 * Thresholds for choosing a join strategy. An input estimated at most
 * {@code broadcastThresholdBytes} ({@code sluice.join.broadcast-threshold}) is broadcast and built;
 * when both inputs are above it, the smaller is built in a partitioned hash join unless it exceeds
 * {@code sortMergeThresholdBytes} ({@code sluice.join.sort-merge-threshold}), in which case both are
 * range-partitioned and sorted for a sort-merge join, which needs no hash table.
 */
public record JoinSelection(long broadcastThresholdBytes, long sortMergeThresholdBytes) {
    public static final JoinSelection DEFAULT = new JoinSelection(10L << 20, 512L << 20);

    public JoinSelection {
        if (broadcastThresholdBytes < -1) {
            throw new IllegalArgumentException("sluice.join.broadcast-threshold must be -1 (never) or more");
        }
        if (sortMergeThresholdBytes < 0) {
            throw new IllegalArgumentException("sluice.join.sort-merge-threshold must not be negative");
        }
    }

    static JoinSelection of(JoinSelection value) {
        return requireNonNull(value, "join selection is null");
    }
}
