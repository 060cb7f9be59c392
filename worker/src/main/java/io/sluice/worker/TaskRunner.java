package io.sluice.worker;

import static java.util.Objects.requireNonNull;

import io.sluice.cluster.protocol.TaskDescription;
import io.sluice.cluster.protocol.TaskFinished;
import io.sluice.cluster.protocol.TaskMetrics;
import io.sluice.cluster.protocol.WorkerMemory;
import io.sluice.cluster.serialization.Kryos;
import io.sluice.common.SluiceException;
import io.sluice.operators.FetchFailure;
import io.sluice.operators.MapStatus;
import io.sluice.operators.OperatorMetrics;
import io.sluice.operators.TaskCancelledException;
import io.sluice.operators.TaskContext;
import io.sluice.operators.basic.MeasuredExec;
import io.sluice.operators.join.SharedBuildCache;
import io.sluice.operators.memory.ArrowMemoryListener;
import io.sluice.operators.memory.MemoryBudget;
import io.sluice.operators.memory.MemoryLimitException;
import io.sluice.operators.memory.MemoryMetricsSink;
import io.sluice.operators.memory.SpillFiles;
import io.sluice.operators.memory.TaskMemoryPool;
import io.sluice.shuffle.MapOutputLocator;
import io.sluice.shuffle.ShuffleEnvironment;
import io.sluice.shuffle.ShuffleFetchException;
import io.sluice.shuffle.ShuffleTaskMetrics;
import io.sluice.shuffle.ShuffleWriterExec;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one task: deserializes the stage plan, executes the task's partition into shuffle files
 * with its own memory pool of the worker's budget (its Arrow allocator draws from the same pool)
 * and its own spill directory, and reports how it went. When the task ends, whatever the outcome,
 * its pool is closed and its spill directory deleted. Broadcast joins' tables are shared by the
 * tasks of a stage through the worker's {@link SharedBuildCache} (keyed by the stage's shuffle id). A user error (bad data, a missing file, not
 * enough memory) is reported as such and the worker goes on. So is a JVM error that only the task
 * met ({@code StackOverflowError}, one oversized allocation, a broken class: {@link TaskErrors});
 * one after which the JVM cannot go on is not swallowed: the worker's fatal-error handler stops the
 * worker and the error is rethrown, so the coordinator sees a lost worker, not a failed task.
 */
final class TaskRunner {
    private static final Logger LOG = LoggerFactory.getLogger(TaskRunner.class);

    /**
     * The JVM's collectors, looked up once: {@code getGarbageCollectorMXBeans()} queries the platform
     * MBean server each call, which cost a tiny task about a twentieth of its CPU time (asked twice per task).
     */
    private static final List<GarbageCollectorMXBean> COLLECTORS = List.copyOf(ManagementFactory.getGarbageCollectorMXBeans());

    private final String workerId;
    private final BufferAllocator allocator;
    private final MemoryBudget memory;
    private final long taskMemoryLimit;
    private final Path spillDirectory;
    private final ShuffleEnvironment shuffle;
    private final Consumer<Throwable> fatalError;
    private final SharedBuildCache sharedBuilds;

    TaskRunner(String workerId, BufferAllocator allocator, MemoryBudget memory, long taskMemoryLimit,
            Path spillDirectory, ShuffleEnvironment shuffle, Consumer<Throwable> fatalError) {
        this(workerId, allocator, memory, taskMemoryLimit, spillDirectory, shuffle, fatalError, new SharedBuildCache(memory));
    }

    /** As above, with the cache through which the tasks of a stage share their broadcast joins' tables. */
    TaskRunner(String workerId, BufferAllocator allocator, MemoryBudget memory, long taskMemoryLimit,
            Path spillDirectory, ShuffleEnvironment shuffle, Consumer<Throwable> fatalError,
            SharedBuildCache sharedBuilds) {
        this.sharedBuilds = requireNonNull(sharedBuilds, "sharedBuilds is null");
        this.workerId = requireNonNull(workerId, "workerId is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.memory = requireNonNull(memory, "memory is null");
        this.taskMemoryLimit = taskMemoryLimit;
        this.spillDirectory = requireNonNull(spillDirectory, "spillDirectory is null");
        this.shuffle = requireNonNull(shuffle, "shuffle is null");
        this.fatalError = requireNonNull(fatalError, "fatalError is null");
    }

    /** The tables of broadcast joins shared by the tasks of a stage on this worker. */
    SharedBuildCache sharedBuilds() {
        return sharedBuilds;
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
        long gcStart = gcMillis();
        ShuffleEnvironment environment = shuffle.forTask(task.jobId(), task.launchId());
        Outcome outcome;
        TaskMemoryPool pool = memory.newTaskPool(task.taskId());
        try {
            outcome = execute(task, environment, cancelled, locator, pool);
        } finally {
            long left = pool.release();
            if (left != 0) {
                LOG.debug("task {} ended with {} bytes still reserved by its operators", task.taskId(), left);
            }
        }
        ShuffleTaskMetrics m = environment.metrics();
        TaskMetrics metrics = new TaskMetrics(System.nanoTime() - start, m.recordsWritten(), m.bytesWritten(),
                m.writeNanos(), m.recordsRead() + scannedRows(outcome.finished().operatorMetrics()), m.localBytesRead(), m.remoteBytesRead(), m.fetchWaitNanos(), pool.peak(),
                pool.spilledBytes(), pool.spills(), (gcMillis() - gcStart) * 1_000_000);
        LOG.debug("task {}: {}", task.taskId(), m);
        return new Outcome(outcome.finished().withMetrics(metrics)
                .withWorkerMemory(new WorkerMemory(memory.reserved(), memory.limit())), outcome.shuffleId());
    }

    /**
     * Rows the task's scans produced from the files they opened: with the shuffle's rows read, the
     * task's input rows (a scan stage reads no shuffle). Operators that opened no file count none.
     */
    private static long scannedRows(OperatorMetrics operators) {
        if (operators == null) {
            return 0;
        }
        long rows = 0;
        for (int i = 0; i < operators.operatorCount(); i++) {
            if (operators.filesOpened()[i] > 0) {
                rows += operators.rows()[i];
            }
        }
        return rows;
    }

    /** The JVM's collectors' time so far (a task's GC time is the difference over its run, as Spark counts it). */
    private static long gcMillis() {
        long total = 0;
        for (GarbageCollectorMXBean gc : COLLECTORS) {
            total += Math.max(0, gc.getCollectionTime());
        }
        return total;
    }

    private Outcome execute(TaskDescription task, ShuffleEnvironment environment, BooleanSupplier cancelled,
            MapOutputLocator locator, TaskMemoryPool pool) {
        String shuffleId = null;
        long heapMark = TaskErrors.heapMark();
        sharedBuilds.evictIdle();
        ArrowMemoryListener arrowMemory = new ArrowMemoryListener(pool.register("Arrow buffers of task " + task.taskId(),
                MemoryMetricsSink.NONE), allocator);
        try (SpillFiles spills = new SpillFiles(spillDirectory.resolve("spill-" + safeName(task.taskId())));
                BufferAllocator taskAllocator = arrowMemory.newTaskAllocator(task.taskId(), taskMemoryLimit)) {
            ShuffleWriterExec plan = Kryos.deserialize(task.plan(), ShuffleWriterExec.class);
            shuffleId = plan.shuffleId();
            TaskContext context = new TaskContext(task.jobId(), task.taskId(), taskAllocator, TaskContext.DEFAULT_BATCH_SIZE,
                    Map.of(ShuffleEnvironment.class, environment, MapOutputLocator.class, locator,
                            SharedBuildCache.Stage.class, sharedBuilds.forStage(shuffleId)), cancelled, pool, spills,
                    MemoryMetricsSink.NONE);
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
            MemoryLimitException memoryLimit = causeOf(e, MemoryLimitException.class);
            if (memoryLimit != null) {
                // Refused memory met on another thread (a shuffle fetch decoding into the task's allocator).
                LOG.info("task {} ran out of memory: {}", task.taskId(), memoryLimit.getMessage());
                return new Outcome(TaskFinished.failed(task.taskId(), workerId, memoryLimit.getMessage(), true), shuffleId);
            }
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
            if (causeOf(e, OutOfMemoryException.class) != null && arrowMemory.workerWasFull() && !cancelled.getAsBoolean()) {
                // The worker's allocator was full (other tasks' buffers, after a bounded wait): load, not a fault.
                LOG.warn("task {} failed: the worker's memory was full", task.taskId(), e);
                return new Outcome(TaskFinished.failedOnFullMemory(task.taskId(), workerId, e.toString()), shuffleId);
            }
            LOG.warn("task {} failed", task.taskId(), e);
            return new Outcome(TaskFinished.failed(task.taskId(), workerId, e.toString(), false), shuffleId);
        } catch (Error e) {
            if (TaskErrors.isFatal(e, heapMark)) {
                fatalError.accept(e);
                throw e;
            }
            LOG.warn("task {} failed with a JVM error; the worker goes on", task.taskId(), e);
            return new Outcome(TaskFinished.failed(task.taskId(), workerId, TaskErrors.describe(task.taskId(), e), false),
                    shuffleId);
        }
    }

    private static <T extends Throwable> T causeOf(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
            for (Throwable s : t.getSuppressed()) {
                if (type.isInstance(s)) {
                    return type.cast(s);
                }
            }
        }
        return null;
    }

    private static String safeName(String taskId) {
        return taskId.replaceAll("[^A-Za-z0-9._-]", "_");
    }
}
