package io.sluice.coordinator.scheduler;

import io.sluice.operators.MapStatus;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Runs one task on some worker. The future fails with a {@link io.sluice.common.SluiceException}
 * for an error the user caused, or a {@link TaskFailedException} when the task could not finish
 * after its retries (lost workers, internal errors).
 */
public interface TaskLauncher {
    CompletableFuture<MapStatus> launch(String jobId, int stageId, int partition, byte[] plan);

    /**
     * The same, for a task whose input lies on {@code preferredHosts} (most data first; empty: no
     * preference): a launcher that places tasks prefers a worker there; this default ignores them.
     */
    default CompletableFuture<MapStatus> launch(String jobId, int stageId, int partition, byte[] plan,
            List<String> preferredHosts) {
        return launch(jobId, stageId, partition, plan);
    }

    /**
     * The same, for a task expected to make {@code reads}: a launcher that dispatches to workers
     * sends their block locations with the task; this default ignores them (the task asks).
     */
    default CompletableFuture<MapStatus> launch(String jobId, int stageId, int partition, byte[] plan,
            List<String> preferredHosts, ShuffleReads reads) {
        return launch(jobId, stageId, partition, plan, preferredHosts);
    }
}
