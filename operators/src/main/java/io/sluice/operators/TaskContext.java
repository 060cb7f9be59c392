package io.sluice.operators;

import static java.util.Objects.requireNonNull;

import io.sluice.kernels.Cancellation;
import io.sluice.operators.memory.MemoryMetricsSink;
import io.sluice.operators.memory.MemoryReservation;
import io.sluice.operators.memory.SpillFiles;
import io.sluice.operators.memory.TaskMemoryPool;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.arrow.memory.BufferAllocator;

/**
 * What a running task gets from the node it runs on: its own allocator (with a limit; the task
 * closes what it allocates), its identity, and node services looked up by type (the shuffle
 * environment on a worker, for example), and whether it was cancelled: long loops call
 * {@link #checkNotCancelled()} between batches, so a cancelled task stops within a batch.
 *
 * <p>Operators that hold data take a {@link #reserve reservation} of the task's memory pool and
 * spill to {@link #spillFiles()} when it is refused. A measured plan hands each operator a copy
 * of the context whose reservations report to that operator's metrics ({@link #forOperator}).
 */
public final class TaskContext implements Cancellation {
    public static final int DEFAULT_BATCH_SIZE = 8192;

    private final String jobId;
    private final String taskId;
    private final BufferAllocator allocator;
    private final int batchSize;
    private final Map<Class<?>, Object> services;
    private final BooleanSupplier cancelled;
    private final TaskMemoryPool memory;
    private final SpillFiles spillFiles;
    private final MemoryMetricsSink metrics;
    /** Values the task's operators publish for the coordinator, shared by its per-operator copies. */
    private final Map<String, Object> published;

    public TaskContext(String taskId, BufferAllocator allocator, int batchSize, Map<Class<?>, Object> services) {
        this(taskId, allocator, batchSize, services, () -> false);
    }

    /** A context whose task stops once {@code cancelled} answers true. */
    public TaskContext(String taskId, BufferAllocator allocator, int batchSize, Map<Class<?>, Object> services,
            BooleanSupplier cancelled) {
        this(taskId, taskId, allocator, batchSize, services, cancelled);
    }

    /**
     * A context for task attempt {@code taskId} of job {@code jobId} (task ids are unique per
     * attempt), whose task stops once {@code cancelled} answers true; its memory is unbounded and
     * it spills to a temporary directory.
     */
    public TaskContext(String jobId, String taskId, BufferAllocator allocator, int batchSize,
            Map<Class<?>, Object> services, BooleanSupplier cancelled) {
        this(jobId, taskId, allocator, batchSize, services, cancelled, TaskMemoryPool.unbounded(taskId),
                SpillFiles.temporary(taskId), MemoryMetricsSink.NONE);
    }

    /** {@link #TaskContext(String, String, BufferAllocator, int, Map, BooleanSupplier, TaskMemoryPool, SpillFiles, MemoryMetricsSink)} outside a job. */
    public TaskContext(String taskId, BufferAllocator allocator, int batchSize, Map<Class<?>, Object> services,
            BooleanSupplier cancelled, TaskMemoryPool memory, SpillFiles spillFiles, MemoryMetricsSink metrics) {
        this(taskId, taskId, allocator, batchSize, services, cancelled, memory, spillFiles, metrics);
    }

    /**
     * A context drawing on {@code memory} and spilling to {@code spillFiles}; the caller closes
     * both when the task ends.
     */
    public TaskContext(String jobId, String taskId, BufferAllocator allocator, int batchSize,
            Map<Class<?>, Object> services, BooleanSupplier cancelled, TaskMemoryPool memory, SpillFiles spillFiles,
            MemoryMetricsSink metrics) {
        this(jobId, taskId, allocator, batchSize, services, cancelled, memory, spillFiles, metrics,
                new java.util.concurrent.ConcurrentHashMap<>());
    }

    private TaskContext(String jobId, String taskId, BufferAllocator allocator, int batchSize,
            Map<Class<?>, Object> services, BooleanSupplier cancelled, TaskMemoryPool memory, SpillFiles spillFiles,
            MemoryMetricsSink metrics, Map<String, Object> published) {
        this.published = published;
        this.jobId = requireNonNull(jobId, "jobId is null");
        this.memory = requireNonNull(memory, "memory is null");
        this.spillFiles = requireNonNull(spillFiles, "spillFiles is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.taskId = requireNonNull(taskId, "taskId is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be positive: " + batchSize);
        }
        this.batchSize = batchSize;
        this.services = Map.copyOf(services);
        this.cancelled = requireNonNull(cancelled, "cancelled is null");
    }

    /** Throws {@link TaskCancelledException} once the task was cancelled. */
    @Override
    public void checkNotCancelled() {
        if (cancelled.getAsBoolean()) {
            throw new TaskCancelledException(taskId);
        }
    }

    /** The job this task belongs to (the task id itself for a task run outside a job). */
    public String jobId() {
        return jobId;
    }

    /** Unique per task attempt. */
    public String taskId() {
        return taskId;
    }

    public BufferAllocator allocator() {
        return allocator;
    }

    public int batchSize() {
        return batchSize;
    }

    /** The task's memory pool. */
    public TaskMemoryPool memory() {
        return memory;
    }

    /** Where the task's operators spill. */
    public SpillFiles spillFiles() {
        return spillFiles;
    }

    /** A new reservation of the task's memory for {@code consumer}, reporting to this context's operator metrics. */
    public MemoryReservation reserve(String consumer) {
        return memory.register(consumer, metrics);
    }

    /**
     * A new reservation of {@code pool} (not the task's: memory shared with other tasks, which
     * outlives this one) for {@code consumer}, reporting to this context's operator metrics.
     */
    public MemoryReservation reserveFrom(TaskMemoryPool pool, String consumer) {
        return pool.register(consumer, metrics);
    }

    /** Counts a hash table this context's operator built (EXPLAIN ANALYZE's {@code builds=}). */
    public void recordBuild() {
        metrics.built();
    }

    /** Counts a data file this context's operator opened (EXPLAIN ANALYZE's {@code files_opened=}). */
    public void recordFileOpened() {
        metrics.fileOpened();
    }

    /** Counts rows this context's scan read but rejected before decoding them whole (EXPLAIN ANALYZE's {@code rows_skipped=}). */
    public void recordRowsSkipped(long rows) {
        metrics.rowsSkipped(rows);
    }

    /** The same task, with reservations reporting to {@code operatorMetrics}. */
    public TaskContext forOperator(MemoryMetricsSink operatorMetrics) {
        return new TaskContext(jobId, taskId, allocator, batchSize, services, cancelled, memory, spillFiles, operatorMetrics,
                published);
    }

    /**
     * Publishes {@code value} under {@code key} for the coordinator: it travels back with the task's
     * map output ({@code MapStatus}) once the task succeeds. A runtime filter's source operator
     * publishes its partial filter this way. Publishing a key twice keeps the last value.
     */
    public void publish(String key, Object value) {
        published.put(requireNonNull(key, "key is null"), requireNonNull(value, "value is null"));
    }

    /** What the task's operators published so far, by key. */
    public Map<String, Object> published() {
        return Map.copyOf(published);
    }

    /** The node service of this type, or null when the node offers none (a task run outside a worker). */
    public <T> T serviceOrNull(Class<T> type) {
        return type.cast(services.get(type));
    }

    /** The node service of this type; a missing one is a wiring bug. */
    public <T> T service(Class<T> type) {
        Object s = services.get(type);
        if (s == null) {
            throw new IllegalStateException("task " + taskId + " has no " + type.getSimpleName());
        }
        return type.cast(s);
    }
}
