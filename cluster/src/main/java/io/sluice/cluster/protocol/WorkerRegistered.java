package io.sluice.cluster.protocol;

/**
 * The coordinator's acknowledgement of {@link RegisterWorker}; the worker may now receive tasks.
 * {@code session} is a random token for this registration: every later command to the worker
 * carries it and every task report from the worker returns it, so each side accepts messages only
 * from the peer it registered with.
 */
public record WorkerRegistered(String coordinatorId, String session) implements WorkerCommand {
    public WorkerRegistered {
        Checks.nonBlank(coordinatorId, "coordinatorId");
        Checks.nonBlank(session, "session");
    }
}
