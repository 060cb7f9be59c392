package io.sluice.cluster.protocol;

import static java.util.Objects.requireNonNull;

/**
 * Tells a worker to stop a task it runs (or has queued): the task stops at its next batch and
 * reports itself failed as cancelled, which frees its slot; output it wrote is deleted if its job
 * was already cleaned up. {@code session}: the worker's registration token ({@link WorkerRegistered}).
 */
public record CancelTask(String taskId, String session) implements WorkerCommand {
    public CancelTask {
        requireNonNull(taskId, "taskId is null");
        Checks.nonBlank(session, "session");
    }
}
