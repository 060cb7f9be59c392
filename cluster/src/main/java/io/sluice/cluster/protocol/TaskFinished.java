package io.sluice.cluster.protocol;

import static java.util.Objects.requireNonNull;

import io.sluice.operators.FetchFailure;
import io.sluice.operators.MapStatus;
import io.sluice.operators.OperatorMetrics;

/**
 * The outcome of one task. Exactly one of {@code status} and {@code error} is set: on success the
 * task's output location ({@code status}), on failure a message ({@code error}). {@code userError}
 * tells a failure the user caused (bad data, a type error found late; re-running will not help)
 * from one the system caused (lost fetch, out of memory; the scheduler may retry). It is false on
 * success. {@code fetchFailure}, on a failure, names a parent map output the task could not read.
 * {@code metrics} (null when unknown) tells what the task did as a whole (time, shuffle work);
 * {@code operatorMetrics}, on a success, what each operator of it did (null if not measured).
 * {@code session} is the worker's registration token ({@link WorkerRegistered}), set by the worker
 * as it sends the report; the coordinator ignores a report without the token of the worker it sent
 * the task to. {@code workerMemory} is the worker's task memory as it reports (null if not sent).
 * {@code memoryFull}, on a system failure, says the worker's memory was full when the task
 * allocated (other tasks' buffers held it): a moment's load, not a fault of the worker, so the
 * attempt is retried without counting against the worker's exclusion.
 */
public record TaskFinished(String taskId, String workerId, MapStatus status, String error, boolean userError,
        FetchFailure fetchFailure, TaskMetrics metrics, OperatorMetrics operatorMetrics, String session,
        WorkerMemory workerMemory, boolean memoryFull) implements CoordinatorCommand {
    public TaskFinished(String taskId, String workerId, MapStatus status, String error, boolean userError) {
        this(taskId, workerId, status, error, userError, null, null, null, null, null, false);
    }

    public TaskFinished {
        Checks.nonBlank(taskId, "taskId");
        Checks.nonBlank(workerId, "workerId");
        if ((status == null) == (error == null)) {
            throw new IllegalArgumentException("exactly one of status and error must be set");
        }
        if (userError && error == null) {
            throw new IllegalArgumentException("userError set on a successful task");
        }
        if (memoryFull && (error == null || userError)) {
            throw new IllegalArgumentException("memoryFull set on a task that did not fail on the system's side");
        }
    }

    public static TaskFinished succeeded(String taskId, String workerId, MapStatus status) {
        return new TaskFinished(taskId, workerId, requireNonNull(status, "status is null"), null, false);
    }

    public static TaskFinished succeeded(String taskId, String workerId, MapStatus status, OperatorMetrics operatorMetrics) {
        return new TaskFinished(taskId, workerId, requireNonNull(status, "status is null"), null, false, null, null,
                requireNonNull(operatorMetrics, "operatorMetrics is null"), null, null, false);
    }

    /** This report with the task's metrics attached. */
    public TaskFinished withMetrics(TaskMetrics taskMetrics) {
        return new TaskFinished(taskId, workerId, status, error, userError, fetchFailure, taskMetrics, operatorMetrics,
                session, workerMemory, memoryFull);
    }

    /** This report with the worker's task memory now. */
    public TaskFinished withWorkerMemory(WorkerMemory memory) {
        return new TaskFinished(taskId, workerId, status, error, userError, fetchFailure, metrics, operatorMetrics,
                session, memory, memoryFull);
    }

    /** This report carrying the worker's registration token. */
    public TaskFinished withSession(String token) {
        return new TaskFinished(taskId, workerId, status, error, userError, fetchFailure, metrics, operatorMetrics,
                Checks.nonBlank(token, "session"), workerMemory, memoryFull);
    }

    /** The task could not read a parent's map output: that output must be recomputed. */
    public static TaskFinished fetchFailed(String taskId, String workerId, String error, FetchFailure failure) {
        return new TaskFinished(taskId, workerId, null, requireNonNull(error, "error is null"), false,
                requireNonNull(failure, "failure is null"), null, null, null, null, false);
    }

    public static TaskFinished failed(String taskId, String workerId, String error, boolean userError) {
        return new TaskFinished(taskId, workerId, null, requireNonNull(error, "error is null"), userError);
    }

    /** The task failed because the worker's memory was full with other tasks' buffers (see {@code memoryFull}). */
    public static TaskFinished failedOnFullMemory(String taskId, String workerId, String error) {
        return new TaskFinished(taskId, workerId, null, requireNonNull(error, "error is null"), false, null, null, null,
                null, null, true);
    }

    public boolean succeeded() {
        return status != null;
    }
}
