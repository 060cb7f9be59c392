package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How a coordinator runs. {@code shufflePartitions} 0 means twice the cluster's task slots
 * ({@code sluice.shuffle.partitions}); {@code httpPort} -1 means no HTTP endpoint, 0 a free port.
 */
public record CoordinatorSettings(String host, int port, int httpPort, int shufflePartitions, int maxOptimizerPasses,
        Duration stableAfter, long memoryLimitBytes, Duration jobTimeout) {
    public CoordinatorSettings {
        requireNonNull(host, "host is null");
        requireNonNull(stableAfter, "stableAfter is null");
        requireNonNull(jobTimeout, "jobTimeout is null");
        if (shufflePartitions < 0) {
            throw new IllegalArgumentException("shuffle partitions must not be negative");
        }
        if (memoryLimitBytes <= 0) {
            throw new IllegalArgumentException("memory limit must be positive");
        }
    }

    public static CoordinatorSettings defaults(String host, int port, int httpPort) {
        return new CoordinatorSettings(host, port, httpPort, 0, 3, Duration.ofSeconds(7), 2L << 30, Duration.ofMinutes(30));
    }

    public CoordinatorSettings withShufflePartitions(int n) {
        return new CoordinatorSettings(host, port, httpPort, n, maxOptimizerPasses, stableAfter, memoryLimitBytes, jobTimeout);
    }

    public CoordinatorSettings withStableAfter(Duration d) {
        return new CoordinatorSettings(host, port, httpPort, shufflePartitions, maxOptimizerPasses, d, memoryLimitBytes, jobTimeout);
    }
}
