package io.sluice.coordinator.scheduler;

/**
 * A task or a stage failed as many times as it may ({@code sluice.task.max-attempts},
 * {@code sluice.stage.max-attempts}): running the whole job again would only repeat that, so the
 * job fails with this message, which carries the last attempt's cause.
 */
public final class AttemptsExhaustedException extends TaskFailedException {
    public AttemptsExhaustedException(String message) {
        super(message);
    }
}
