package io.sluice.operators.memory;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

/**
 * One task's share of its worker's {@link MemoryBudget}: the operators of the task register a
 * {@link MemoryReservation} each and grow, shrink and free it as their data comes and goes.
 * Closing the pool (when the task ends, whatever the outcome) frees every reservation still held,
 * so a failed or cancelled task leaves nothing reserved behind.
 */
public final class TaskMemoryPool implements AutoCloseable {
    private final String taskId;
    private final MemoryBudget budget;
    private final List<MemoryReservation> reservations = new ArrayList<>();
    private long reserved;
    private long peak;
    private long spilledBytes;
    private long spills;
    private boolean closed;

    TaskMemoryPool(String taskId, MemoryBudget budget) {
        this.taskId = requireNonNull(taskId, "taskId is null");
        this.budget = requireNonNull(budget, "budget is null");
    }

    /** A pool of its own unlimited budget (tests and tools outside a worker). */
    public static TaskMemoryPool unbounded(String taskId) {
        return MemoryBudget.unlimited().newTaskPool(taskId);
    }

    /** A new, empty reservation for {@code consumer} (an operator's description), reporting to {@code metrics}. */
    public synchronized MemoryReservation register(String consumer, MemoryMetricsSink metrics) {
        if (closed) {
            throw new IllegalStateException("the memory pool of task " + taskId + " is closed");
        }
        MemoryReservation r = new MemoryReservation(this, consumer, metrics);
        reservations.add(r);
        return r;
    }

    public String taskId() {
        return taskId;
    }

    public MemoryBudget budget() {
        return budget;
    }

    /** Bytes this task holds now. */
    public synchronized long reserved() {
        return reserved;
    }

    /** The most this task held at once. */
    public synchronized long peak() {
        return peak;
    }

    /** Bytes its operators wrote to disk, in all. */
    public synchronized long spilledBytes() {
        return spilledBytes;
    }

    /** How many spills its operators made. */
    public synchronized long spills() {
        return spills;
    }

    synchronized void spilled(long bytes) {
        spilledBytes += bytes;
        spills++;
    }

    synchronized boolean tryGrow(long bytes, boolean spillable) {
        if (closed || (spillable && reserved + bytes > budget.fairShare()) || !budget.tryReserve(bytes, spillable)) {
            return false;
        }
        reserved += bytes;
        peak = Math.max(peak, reserved);
        return true;
    }

    /**
     * Whether memory other tasks hold could, once released, let this task take {@code bytes} more
     * without passing the worker's limit: waiting for them is then worth it; otherwise this task
     * alone is too large and waiting cannot help.
     */
    synchronized boolean othersCouldMakeRoomFor(long bytes) {
        long others = budget.reserved() - reserved;
        return !closed && others > 0 && reserved + bytes <= budget.limit();
    }

    synchronized void forceGrow(long bytes) {
        budget.forceReserve(bytes);
        reserved += bytes;
        peak = Math.max(peak, reserved);
    }

    synchronized void shrink(long bytes) {
        reserved -= bytes;
        budget.release(bytes);
    }

    synchronized void unregister(MemoryReservation r) {
        reservations.remove(r);
    }

    /** What a refused reservation reports: who asked, what it and the task hold, and the worker's limit. */
    MemoryLimitException refused(String consumer, long held, long wanted) {
        return new MemoryLimitException(consumer + " could not reserve " + Bytes.format(wanted) + " more: it holds "
                + Bytes.format(held) + ", task " + taskId + " holds " + Bytes.format(reserved()) + ", and the worker's "
                + "memory (sluice.worker.memory) is " + Bytes.format(budget.limit()) + " with "
                + Bytes.format(budget.reserved()) + " in use");
    }

    @Override
    public void close() {
        release();
    }

    /**
     * Frees whatever is still reserved and closes the pool; returns how many bytes the operators
     * had left reserved (0 when every one freed its own). Reservations are closed outside this
     * pool's lock: they take their own lock first, then the pool's.
     */
    public long release() {
        List<MemoryReservation> open;
        long left;
        synchronized (this) {
            if (closed) {
                return 0;
            }
            left = reserved;
            open = List.copyOf(reservations);
        }
        for (MemoryReservation r : open) {
            r.close();
        }
        synchronized (this) {
            closed = true;
            if (reserved != 0) {
                budget.release(reserved);
                reserved = 0;
            }
        }
        budget.closed(this);
        return left;
    }
}
