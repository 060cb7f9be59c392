package io.sluice.worker;

import static java.util.Objects.requireNonNull;

import io.sluice.common.settings.Settings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalLong;

/**
 * How a worker runs: its cluster and shuffle addresses (port 0 picks a free one), the
 * coordinator's cluster address to join, task slots, where shuffle files go, and memory limits.
 */
public record WorkerSettings(String workerId, String host, int port, int shufflePort, String coordinatorAddress, int slots,
        Path localDirectory, long memoryLimitBytes, long taskMemoryLimitBytes, Duration stableAfter, String authSecret) {
    public WorkerSettings {
        if (authSecret != null && authSecret.isEmpty()) {
            throw new IllegalArgumentException("authSecret is empty");
        }
        requireNonNull(workerId, "workerId is null");
        requireNonNull(host, "host is null");
        requireNonNull(coordinatorAddress, "coordinatorAddress is null");
        requireNonNull(localDirectory, "localDirectory is null");
        requireNonNull(stableAfter, "stableAfter is null");
        if (slots < 1) {
            throw new IllegalArgumentException("a worker needs at least one slot: " + slots);
        }
        if (taskMemoryLimitBytes <= 0 || memoryLimitBytes < taskMemoryLimitBytes) {
            throw new IllegalArgumentException("memory limits must be positive, the task limit within the worker's");
        }
    }

    /** Share of the JVM's maximum heap a worker's memory defaults to, when {@code sluice.worker.memory} is unset. */
    public static final double DEFAULT_HEAP_FRACTION = 0.6;

    /**
     * Defaults: two slots, and memory from {@code sluice.worker.memory} or else
     * {@value #DEFAULT_HEAP_FRACTION} of the JVM's maximum heap. That one budget covers the heap
     * structures of running tasks and their Arrow buffers (direct memory, whose JVM limit defaults
     * to the maximum heap); the rest of the heap is left to what is not counted (batches in flight
     * between operators, Netty buffers, the actor system).
     */
    public static WorkerSettings defaults(String workerId, String host, String coordinatorAddress, Path localDirectory) {
        long memory = defaultMemory();
        return new WorkerSettings(workerId, host, 0, 0, coordinatorAddress, 2, localDirectory, memory, memory,
                Duration.ofSeconds(7), secretFromEnvironment());
    }

    /** {@code sluice.worker.memory} if set, else {@value #DEFAULT_HEAP_FRACTION} of the maximum heap. */
    public static long defaultMemory() {
        return configuredMemory().orElse((long) (Runtime.getRuntime().maxMemory() * DEFAULT_HEAP_FRACTION));
    }

    /** {@code -Dsluice.worker.memory} ({@link WorkerSettingsDeclaration#MEMORY}), if set. */
    public static OptionalLong configuredMemory() {
        Long configured = Settings.systemProperty(WorkerSettingsDeclaration.MEMORY);
        return configured == null ? OptionalLong.empty() : OptionalLong.of(configured);
    }

    /** A copy with {@code bytes} of memory for its tasks (heap structures and Arrow buffers together). */
    public WorkerSettings withMemory(long bytes) {
        return new WorkerSettings(workerId, host, port, shufflePort, coordinatorAddress, slots, localDirectory,
                bytes, bytes, stableAfter, authSecret);
    }

    public WorkerSettings withSlots(int n) {
        return new WorkerSettings(workerId, host, port, shufflePort, coordinatorAddress, n, localDirectory,
                memoryLimitBytes,
                taskMemoryLimitBytes, stableAfter, authSecret);
    }

    public WorkerSettings withPorts(int clusterPort, int shuffle) {
        return new WorkerSettings(workerId, host, clusterPort, shuffle, coordinatorAddress, slots, localDirectory,
                memoryLimitBytes, taskMemoryLimitBytes, stableAfter, authSecret);
    }

    public WorkerSettings withStableAfter(Duration d) {
        return new WorkerSettings(workerId, host, port, shufflePort, coordinatorAddress, slots, localDirectory,
                memoryLimitBytes, taskMemoryLimitBytes, d, authSecret);
    }

    /**
     * A copy whose shuffle connections must prove knowledge of {@code secret} (null: none), as
     * {@code SLUICE_AUTH_SECRET} sets by default.
     */
    public WorkerSettings withAuthSecret(String secret) {
        return new WorkerSettings(workerId, host, port, shufflePort, coordinatorAddress, slots, localDirectory,
                memoryLimitBytes, taskMemoryLimitBytes, stableAfter, secret);
    }

    /** {@code SLUICE_AUTH_SECRET}, or null when unset or empty. */
    static String secretFromEnvironment() {
        String secret = System.getenv("SLUICE_AUTH_SECRET");
        return secret == null || secret.isEmpty() ? null : secret;
    }

    /** Never prints the secret. */
    @Override
    public String toString() {
        return "WorkerSettings[" + "workerId=" + workerId + ", host=" + host + ", port=" + port + ", shufflePort="
                + shufflePort + ", coordinatorAddress=" + coordinatorAddress + ", slots=" + slots
                + ", localDirectory=" + localDirectory + ", memoryLimitBytes=" + memoryLimitBytes
                + ", taskMemoryLimitBytes=" + taskMemoryLimitBytes + ", stableAfter=" + stableAfter
                + ", authSecret=" + (authSecret == null ? "none" : "set") + "]";
    }

    /** Each task's Arrow memory limit, within the worker's. */
    public WorkerSettings withTaskMemoryLimit(long bytes) {
        return new WorkerSettings(workerId, host, port, shufflePort, coordinatorAddress, slots, localDirectory,
                memoryLimitBytes, bytes, stableAfter, authSecret);
    }
}
