package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.datasource.FileAccessPolicy;
import java.nio.file.Path;
import java.time.Duration;

/**
 * How a coordinator runs: its addresses ({@code httpPort} -1 means no HTTP endpoint, 0 a free
 * port), the settings queries start from ({@link QueryConfig}) and where tables may live
 * ({@code fileAccess}; by default {@code sluice.fs.allowed-roots} or the working directory), and
 * the data directory its catalog and managed tables live under ({@code dataDir}; null: a catalog in
 * memory and managed tables in a temporary directory).
 */
public record CoordinatorSettings(String host, int port, int httpPort, QueryConfig queryDefaults,
        Duration stableAfter, long memoryLimitBytes, Duration jobTimeout, String authSecret,
        FileAccessPolicy fileAccess, SchedulerSettings scheduler, Path dataDir) {
    public CoordinatorSettings {
        requireNonNull(fileAccess, "fileAccess is null");
        if (authSecret != null && authSecret.isEmpty()) {
            throw new IllegalArgumentException("authSecret is empty");
        }
        requireNonNull(host, "host is null");
        requireNonNull(stableAfter, "stableAfter is null");
        requireNonNull(jobTimeout, "jobTimeout is null");
        requireNonNull(queryDefaults, "queryDefaults is null");
        requireNonNull(scheduler, "scheduler is null");
        if (memoryLimitBytes <= 0) {
            throw new IllegalArgumentException("memory limit must be positive");
        }
    }

    public static CoordinatorSettings defaults(String host, int port, int httpPort) {
        return new CoordinatorSettings(host, port, httpPort, QueryConfig.defaults(), Duration.ofSeconds(7), 2L << 30,
                CoordinatorSettingsDeclaration.JOB_TIMEOUT.defaultValue(), secretFromEnvironment(),
                FileAccessPolicy.fromSystemProperty(System.getProperty("user.dir")), SchedulerSettings.defaults(), null);
    }

    /** The cluster's task slots when 0. */
    public int shufflePartitions() {
        return queryDefaults.shufflePartitions();
    }

    public CoordinatorSettings withShufflePartitions(int n) {
        return withQueryDefaults(queryDefaults.with("sluice.shuffle.partitions", Integer.toString(n)));
    }

    public CoordinatorSettings withQueryDefaults(QueryConfig config) {
        return new CoordinatorSettings(host, port, httpPort, config, stableAfter, memoryLimitBytes, jobTimeout,
                authSecret, fileAccess, scheduler, dataDir);
    }

    public CoordinatorSettings withStableAfter(Duration d) {
        return new CoordinatorSettings(host, port, httpPort, queryDefaults, d, memoryLimitBytes, jobTimeout,
                authSecret, fileAccess, scheduler, dataDir);
    }

    /**
     * A copy whose shuffle connections must prove knowledge of {@code secret} (null: none), as
     * {@code SLUICE_AUTH_SECRET} sets by default.
     */
    public CoordinatorSettings withAuthSecret(String secret) {
        return new CoordinatorSettings(host, port, httpPort, queryDefaults, stableAfter, memoryLimitBytes,
                jobTimeout, secret, fileAccess, scheduler, dataDir);
    }

    /** {@code SLUICE_AUTH_SECRET}, or null when unset or empty. */
    static String secretFromEnvironment() {
        String secret = System.getenv("SLUICE_AUTH_SECRET");
        return secret == null || secret.isEmpty() ? null : secret;
    }

    /** Never prints the secret. */
    @Override
    public String toString() {
        return "CoordinatorSettings[" + "dataDir=" + dataDir + ", host=" + host + ", port=" + port + ", httpPort=" + httpPort
                + ", queryDefaults=" + queryDefaults + ", stableAfter=" + stableAfter + ", memoryLimitBytes="
                + memoryLimitBytes + ", jobTimeout=" + jobTimeout + ", authSecret="
                + (authSecret == null ? "none" : "set") + ", fileAccess=" + fileAccess + ", scheduler=" + scheduler + "]";
    }

    /** A copy that opens tables only where {@code policy} allows. */
    public CoordinatorSettings withFileAccess(FileAccessPolicy policy) {
        return new CoordinatorSettings(host, port, httpPort, queryDefaults, stableAfter, memoryLimitBytes, jobTimeout,
                authSecret, policy, scheduler, dataDir);
    }

    /** How long a job may run before it is cancelled and fails with a timeout. */
    public CoordinatorSettings withJobTimeout(Duration timeout) {
        return new CoordinatorSettings(host, port, httpPort, queryDefaults, stableAfter, memoryLimitBytes, timeout,
                authSecret, fileAccess, scheduler, dataDir);
    }

    /**
     * A copy that keeps its catalog under {@code directory} ({@code catalog/}, one file per database)
     * and, unless {@code sluice.sql.warehouse-dir} says otherwise, its managed tables under
     * {@code directory/warehouse}; null keeps the catalog in memory only.
     */
    public CoordinatorSettings withDataDir(Path directory) {
        return new CoordinatorSettings(host, port, httpPort, queryDefaults, stableAfter, memoryLimitBytes, jobTimeout,
                authSecret, fileAccess, scheduler, directory == null ? null : directory.toAbsolutePath());
    }

    /** How failing and slow tasks are retried, timed out and their workers excluded. */
    public CoordinatorSettings withScheduler(SchedulerSettings settings) {
        return new CoordinatorSettings(host, port, httpPort, queryDefaults, stableAfter, memoryLimitBytes, jobTimeout,
                authSecret, fileAccess, settings, dataDir);
    }
}
