package io.sluice.operators;

/** Thrown inside a task that was cancelled, to unwind it; the task's resources close on the way out. */
public final class TaskCancelledException extends RuntimeException {
    public TaskCancelledException(String taskId) {
        super("task " + taskId + " was cancelled", null, false, false);
    }
}
