package io.sluice.physical.rules;

import static java.util.Objects.requireNonNull;

/**
 * Thresholds for choosing a join strategy. An input estimated at most
 * {@code broadcastThresholdBytes} ({@code sluice.join.broadcast-threshold}) is broadcast and built;
 * when both inputs are above it, the smaller is built in a partitioned hash join unless it exceeds
 * {@code sortMergeThresholdBytes} ({@code sluice.join.sort-merge-threshold}), in which case both are
 * range-partitioned and sorted for a sort-merge join, which needs no hash table.
 *
 * <p>A partitioned hash join whose build side is estimated at most {@code runtimeFilterMaxBuildBytes}
 * ({@code sluice.join.runtime-filter-threshold}; -1 never) and whose keys are expected to reject at
 * least half of the probe rows gets a runtime filter on its probe side ({@code RuntimeFilterExec}).
 */
public record JoinSelection(long broadcastThresholdBytes, long sortMergeThresholdBytes, long runtimeFilterMaxBuildBytes) {
    public static final JoinSelection DEFAULT = new JoinSelection(10L << 20, 512L << 20, 64L << 20);

    /** Thresholds without runtime filters. */
    public JoinSelection(long broadcastThresholdBytes, long sortMergeThresholdBytes) {
        this(broadcastThresholdBytes, sortMergeThresholdBytes, -1);
    }

    public JoinSelection {
        if (broadcastThresholdBytes < -1) {
            throw new IllegalArgumentException("sluice.join.broadcast-threshold must be -1 (never) or more");
        }
        if (sortMergeThresholdBytes < 0) {
            throw new IllegalArgumentException("sluice.join.sort-merge-threshold must not be negative");
        }
        if (runtimeFilterMaxBuildBytes < -1) {
            throw new IllegalArgumentException("sluice.join.runtime-filter-threshold must be -1 (never) or more");
        }
    }

    public static JoinSelection of(JoinSelection value) {
        return requireNonNull(value, "join selection is null");
    }
}
