package io.sluice.operators.memory;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.AllocationListener;
import org.apache.arrow.memory.AllocationOutcome;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Makes a task's Arrow allocations count against its memory pool: set on the task's allocator (its
 * child allocators inherit it), each allocation grows the task's "Arrow buffers" reservation and
 * each release shrinks it. Arrow allocations are never refused here (they are counted, so spilling
 * operators meet their limit sooner): a refusal in the middle of decoding or encoding a batch, on a
 * shuffle client thread, would leave half-built vectors behind. The worker's allocator, whose limit
 * is a backstop above the worker's memory, and the task allocator's own limit still bound them.
 *
 * <p>When the worker's allocator refuses an allocation on the task's own thread while other tasks
 * hold Arrow memory, the listener waits for them to release some (at most
 * {@link MemoryReservation#CONTENTION_WAIT_NANOS}) and has Arrow try once more, as
 * {@link MemoryReservation#grow} waits: two tasks' batches overlapping for a moment must not fail a
 * task that fits. Allocations on other threads (a shuffle client's event loop, which serves other
 * tasks too), allocations this task could not fit alone and allocations past the task's own
 * limit fail at once. A refused allocation is never left counted: the reservation gives it back
 * before waiting and takes it again only once Arrow's retry has allocated it.
 */
public final class ArrowMemoryListener implements AllocationListener {
    /** How long one wait lasts before the worker's headroom is looked at again (memory freed without a release signal). */
    private static final long WAIT_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final MemoryReservation reservation;
    private final BufferAllocator worker;
    private final Thread owner;
    /** The task's allocator, once made ({@link #newTaskAllocator}): its own limit may refuse too. */
    private volatile BufferAllocator task;
    /** Owner thread only: the size of a refused allocation Arrow is trying once more, counted when it succeeds. */
    private long retrying;
    private volatile boolean workerWasFull;

    /** A listener that never waits (tests and tools outside a worker). */
    public ArrowMemoryListener(MemoryReservation reservation) {
        this.reservation = requireNonNull(reservation, "reservation is null");
        this.worker = null;
        this.owner = null;
    }

    /**
     * A listener for a task running on the calling thread, whose allocations are bounded by
     * {@code worker} (the worker's root allocator); make the task's allocator with
     * {@link #newTaskAllocator}.
     */
    public ArrowMemoryListener(MemoryReservation reservation, BufferAllocator worker) {
        this.reservation = requireNonNull(reservation, "reservation is null");
        this.worker = requireNonNull(worker, "worker is null");
        this.owner = Thread.currentThread();
    }

    /** The task's allocator: a child of the worker's with this listener and {@code limit}; the caller closes it. */
    public BufferAllocator newTaskAllocator(String name, long limit) {
        if (worker == null || task != null) {
            throw new IllegalStateException("a task allocator needs a listener of a worker's task, made once");
        }
        BufferAllocator allocator = worker.newChildAllocator(name, this, 0, limit);
        task = allocator;
        return allocator;
    }

    /**
     * Whether the last allocation of this task that was refused was refused by the worker's
     * allocator while the task's own limit had room: the worker was loaded by other tasks, not
     * faulty, and the task was not too large for its own limit.
     */
    public boolean workerWasFull() {
        return workerWasFull;
    }

    @Override
    public void onPreAllocation(long size) {
        if (owner != null && Thread.currentThread() == owner) {
            retrying = 0; // a retry that failed left its size here
        }
        reservation.forceGrow(size);
    }

    @Override
    public void onAllocation(long size) {
        if (owner != null && Thread.currentThread() == owner && retrying != 0) {
            reservation.forceGrow(retrying);
            retrying = 0;
        }
    }

    @Override
    public boolean onFailedAllocation(long size, AllocationOutcome outcome) {
        reservation.shrink(size);
        BufferAllocator taskAllocator = task;
        // Arrow names the topmost allocator that refused: the task's own limit may have refused too.
        boolean full = worker != null && taskAllocator != null
                && outcome.getDetails().map(d -> d.getFailedAllocator() == worker).orElse(false)
                && taskAllocator.getAllocatedMemory() + size <= taskAllocator.getLimit()
                && reservation.size() + size <= worker.getLimit(); // and the task alone would fit the worker
        workerWasFull = full;
        if (full && Thread.currentThread() == owner && awaitRoom(size)) {
            retrying = size;
            return true;
        }
        return false;
    }

    @Override
    public void onRelease(long size) {
        reservation.shrink(size);
    }

    /** Whether the worker's allocator has {@code size} free after waiting for other tasks to release some. */
    private boolean awaitRoom(long size) {
        MemoryBudget budget = reservation.budget();
        long deadline = System.nanoTime() + MemoryReservation.CONTENTION_WAIT_NANOS;
        while (true) {
            long seen = budget.releaseCount();
            if (worker.getHeadroom() >= size) {
                return true;
            }
            long left = deadline - System.nanoTime();
            if (worker.getAllocatedMemory() <= reservation.size() || left <= 0) {
                return false; // nobody else to wait for, or waited long enough
            }
            try {
                budget.awaitRelease(seen, Math.min(left, WAIT_SLICE_NANOS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // a cancelled task: the allocation fails, the task stops
                return false;
            }
        }
    }
}
