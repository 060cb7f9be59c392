package io.sluice.worker;

import static java.util.Objects.requireNonNull;

import io.sluice.cluster.protocol.TaskDescription;
import io.sluice.cluster.protocol.TaskFinished;
import io.sluice.cluster.protocol.TaskMetrics;
import io.sluice.cluster.serialization.Kryos;
import io.sluice.plan.SluiceException;
import io.sluice.plan.operators.MeasuredExec;
import io.sluice.plan.physical.MapStatus;
import io.sluice.plan.physical.TaskCancelledException;
import io.sluice.plan.physical.TaskContext;
import io.sluice.plan.physical.FetchFailure;
import io.sluice.shuffle.MapOutputLocator;
import io.sluice.shuffle.ShuffleEnvironment;
import io.sluice.shuffle.ShuffleFetchException;
import io.sluice.shuffle.ShuffleTaskMetrics;
import io.sluice.shuffle.ShuffleWriterExec;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one task: deserializes the stage plan, executes the task's partition into shuffle files
 * under a child allocator with the task memory limit, and reports how it went. Never throws: a
 * user error (bad data, a missing file) is reported as such and the worker goes on.
 */
final class TaskRunner {
    private static final Logger LOG = LoggerFactory.getLogger(TaskRunner.class);

    private final String workerId;
    private final BufferAllocator allocator;
    private final long taskMemoryLimit;
    private final ShuffleEnvironment shuffle;

    TaskRunner(String workerId, BufferAllocator allocator, long taskMemoryLimit, ShuffleEnvironment shuffle) {
        this.workerId = requireNonNull(workerId, "workerId is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.taskMemoryLimit = taskMemoryLimit;
        this.shuffle = requireNonNull(shuffle, "shuffle is null");
    }

    /** How a task went, and the shuffle it wrote (null if its plan did not even decode). */
    record Outcome(TaskFinished finished, String shuffleId) {
    }

    /**
     * Runs the task; it stops at its next batch once {@code cancelled} answers true. Its shuffle
     * readers learn where their blocks are from {@code locator}.
     */
    Outcome run(TaskDescription task, BooleanSupplier cancelled, MapOutputLocator locator) {
        long start = System.nanoTime();
        ShuffleEnvironment environment = shuffle.forTask(task.jobId(), task.launchId());
        Outcome outcome = execute(task, environment, cancelled, locator);
        ShuffleTaskMetrics m = environment.metrics();
        TaskMetrics metrics = new TaskMetrics(System.nanoTime() - start, m.recordsWritten(), m.bytesWritten(),
                m.writeNanos(), m.recordsRead(), m.localBytesRead(), m.remoteBytesRead(), m.fetchWaitNanos());
        LOG.debug("task {}: {}", task.taskId(), m);
        return new Outcome(outcome.finished().withMetrics(metrics), outcome.shuffleId());
    }

    private Outcome execute(TaskDescription task, ShuffleEnvironment environment, BooleanSupplier cancelled,
            MapOutputLocator locator) {
        String shuffleId = null;
        try (BufferAllocator taskAllocator = allocator.newChildAllocator(task.taskId(), 0, taskMemoryLimit)) {
            ShuffleWriterExec plan = Kryos.deserialize(task.plan(), ShuffleWriterExec.class);
            shuffleId = plan.shuffleId();
            TaskContext context = new TaskContext(task.jobId(), task.taskId(), taskAllocator,
                    TaskContext.DEFAULT_BATCH_SIZE, Map.of(ShuffleEnvironment.class, environment, MapOutputLocator.class,
                    locator), cancelled);
            context.checkNotCancelled();
            // Every operator below the writer is counted for EXPLAIN ANALYZE: a clock read per batch.
            MeasuredExec.Measured measured = MeasuredExec.measure(plan.input());
            ShuffleWriterExec measuredPlan = (ShuffleWriterExec) plan.withNewChildren(List.of(measured.plan()));
            MapStatus status = measuredPlan.write(task.partition(), context);
            return new Outcome(TaskFinished.succeeded(task.taskId(), workerId, status, measured.metrics()), shuffleId);
        } catch (SluiceException e) {
            LOG.info("task {} failed on bad input: {}", task.taskId(), e.getMessage());
            return new Outcome(TaskFinished.failed(task.taskId(), workerId, e.getMessage(), true), shuffleId);
        } catch (RuntimeException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof TaskCancelledException) {
                    LOG.info("task {} stopped: cancelled", task.taskId());
                    return new Outcome(TaskFinished.failed(task.taskId(), workerId, "cancelled", false), shuffleId);
                }
                if (t instanceof ShuffleFetchException fetch) {
                    LOG.warn("task {} could not read {} map {} from {}:{}", task.taskId(), fetch.shuffleId(), fetch.map(),
                            fetch.host(), fetch.port());
                    FetchFailure failure = new FetchFailure(fetch.shuffleId(), fetch.map(), fetch.host(), fetch.port(),
                            fetch.serverLost());
                    return new Outcome(TaskFinished.fetchFailed(task.taskId(), workerId, e.toString(), failure), shuffleId);
                }
            }
            LOG.warn("task {} failed", task.taskId(), e);
            return new Outcome(TaskFinished.failed(task.taskId(), workerId, e.toString(), false), shuffleId);
        } catch (Error e) {
            LOG.warn("task {} failed", task.taskId(), e);
            return new Outcome(TaskFinished.failed(task.taskId(), workerId, e.toString(), false), shuffleId);
        }
    }
}
