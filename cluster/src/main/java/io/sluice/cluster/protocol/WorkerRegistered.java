package io.sluice.cluster.protocol;

/** The coordinator's acknowledgement of {@link RegisterWorker}; the worker may now receive tasks. */
public record WorkerRegistered(String coordinatorId) implements WorkerCommand {
    public WorkerRegistered {
        Checks.nonBlank(coordinatorId, "coordinatorId");
    }
}
