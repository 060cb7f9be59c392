package io.sluice.coordinator.scheduler;

/** A task failed for a reason other than the user's input, after every retry. */
public class TaskFailedException extends RuntimeException {
    public TaskFailedException(String message) {
        super(message);
    }
}
