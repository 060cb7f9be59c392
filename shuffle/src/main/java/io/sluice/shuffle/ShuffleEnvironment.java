package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

/**
 * The per-worker shuffle service that tasks look up with
 * {@code context.service(ShuffleEnvironment.class)}: where map output is written
 * ({@code localDirectory}, the root its {@link ShuffleServer} serves), the address other workers
 * fetch it from ({@code host:port}), the client this worker fetches with, the settings, the job
 * whose task runs (block requests carry it; see {@link #forJob}) and that task's metrics. The worker owns the server
 * and client and closes them; the environment is only a handle. {@code taskKey} names the task
 * whose attempts share one map output (see {@link MapOutputWriter}); empty when unknown.
 */
public record ShuffleEnvironment(String workerId, String host, int port, Path localDirectory, ShuffleClient client,
        ShuffleSettings settings, String jobId, ShuffleTaskMetrics metrics, String taskKey) {
    public ShuffleEnvironment {
        requireNonNull(workerId, "workerId is null");
        requireNonNull(host, "host is null");
        requireNonNull(localDirectory, "localDirectory is null");
        requireNonNull(client, "client is null");
        requireNonNull(settings, "settings is null");
        requireNonNull(jobId, "jobId is null");
        requireNonNull(metrics, "metrics is null");
        requireNonNull(taskKey, "taskKey is null");
        if (workerId.isEmpty()) {
            throw new IllegalArgumentException("workerId is empty");
        }
        if (host.isEmpty()) {
            throw new IllegalArgumentException("host is empty");
        }
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("bad port " + port);
        }
    }

    /** A worker's environment before any job: default settings, no job. */
    public ShuffleEnvironment(String workerId, String host, int port, Path localDirectory, ShuffleClient client) {
        this(workerId, host, port, localDirectory, client, ShuffleSettings.defaults(), "", new ShuffleTaskMetrics(), "");
    }

    /** The same environment for a task of job {@code id}, with fresh metrics. */
    public ShuffleEnvironment forJob(String id) {
        return forTask(id, "");
    }

    /**
     * The same environment for an attempt of task {@code key} of job {@code id}, with fresh
     * metrics: attempts of one task share the key, so the first of them to commit its map output
     * keeps it.
     */
    public ShuffleEnvironment forTask(String id, String key) {
        return new ShuffleEnvironment(workerId, host, port, localDirectory, client, settings, id,
                new ShuffleTaskMetrics(), key);
    }

    public ShuffleEnvironment withSettings(ShuffleSettings newSettings) {
        return new ShuffleEnvironment(workerId, host, port, localDirectory, client, newSettings, jobId, metrics, taskKey);
    }

    /** Whether {@code host:port} is this worker's own shuffle server, so its blocks can be read from disk. */
    boolean isLocal(String otherHost, int otherPort) {
        return port == otherPort && host.equals(otherHost);
    }
}
