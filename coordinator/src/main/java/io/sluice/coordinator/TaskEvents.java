package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.cluster.protocol.TaskDescription;
import io.sluice.cluster.protocol.TaskMetrics;
import io.sluice.coordinator.monitor.EventBus;
import io.sluice.coordinator.monitor.QueryEvent;

/**
 * The dispatcher's side of the monitoring events: each attempt's start on a worker and its end,
 * with what the worker reported. Posting never blocks the dispatcher ({@link EventBus}).
 */
final class TaskEvents {
    static final TaskEvents NONE = new TaskEvents(EventBus.NONE);

    private final EventBus bus;

    TaskEvents(EventBus bus) {
        this.bus = requireNonNull(bus, "bus is null");
    }

    void started(TaskDescription task, RegisteredWorker worker) {
        bus.post(new QueryEvent.TaskStarted(task.jobId(), task.stageId(), task.partition(), task.attempt(),
                worker.address(), System.currentTimeMillis()));
    }

    /** {@code state}: FINISHED, FAILED or KILLED; {@code metrics} null when the worker sent none. */
    void ended(TaskDescription task, RegisteredWorker worker, String state, TaskMetrics metrics, String error,
            boolean fetchFailed) {
        bus.post(new QueryEvent.TaskEnded(task.jobId(), task.stageId(), task.partition(), task.attempt(),
                worker == null ? null : worker.address(), state, metrics == null ? null : numbers(metrics), error,
                fetchFailed, System.currentTimeMillis()));
    }

    static QueryEvent.TaskNumbers numbers(TaskMetrics m) {
        return new QueryEvent.TaskNumbers(m.recordsWritten(), m.bytesWritten(), m.recordsRead(),
                m.localBytesRead() + m.remoteBytesRead(), m.fetchWaitNanos() / 1_000_000, m.spilledBytes(),
                m.gcNanos() / 1_000_000, m.taskNanos() / 1_000_000);
    }
}
