package io.sluice.operators.memory;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import org.apache.arrow.memory.AllocationListener;
import org.apache.arrow.memory.AllocationOutcome;
import org.apache.arrow.memory.AllocationOutcomeDetails;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Makes a task's Arrow allocations count against its memory pool: set on the task's allocator (its
 * child allocators inherit it), each allocation grows the task's "Arrow buffers" reservation and
 * each release shrinks it. Arrow allocations are never refused here (they are counted, so spilling
 * operators meet their limit sooner): a refusal in the middle of decoding or encoding a batch, on a
 * shuffle client thread, would leave half-built vectors behind. The root allocator's limit, the
 * worker's memory, still bounds them.
 *
 * <p>When the worker's allocator refuses an allocation on the task's own thread while other tasks
 * hold Arrow memory, the listener waits for them to release some (at most
 * {@link MemoryReservation#CONTENTION_WAIT_NANOS}) and has Arrow try once more, as
 * {@link MemoryReservation#grow} waits: two tasks' batches overlapping for a moment must not fail a
 * task that fits. Allocations on other threads (a shuffle client's event loop, which serves other
 * tasks too), allocations this task could not fit alone and allocations past the task's own
 * limit fail at once.
 */
public final class ArrowMemoryListener implements AllocationListener {
    private final MemoryReservation reservation;
    private final BufferAllocator worker;
    private final Thread owner;

    /** A listener that never waits (tests and tools outside a worker). */
    public ArrowMemoryListener(MemoryReservation reservation) {
        this.reservation = requireNonNull(reservation, "reservation is null");
        this.worker = null;
        this.owner = null;
    }

    /**
     * A listener for a task running on the calling thread, whose allocations are bounded by
     * {@code worker} (the worker's root allocator, the one whose limit refuses them).
     */
    public ArrowMemoryListener(MemoryReservation reservation, BufferAllocator worker) {
        this.reservation = requireNonNull(reservation, "reservation is null");
        this.worker = requireNonNull(worker, "worker is null");
        this.owner = Thread.currentThread();
    }

    @Override
    public void onPreAllocation(long size) {
        reservation.forceGrow(size);
    }

    @Override
    public boolean onFailedAllocation(long size, AllocationOutcome outcome) {
        // The reservation keeps the size while waiting: a retry that succeeds is then counted.
        if (worker != null && Thread.currentThread() == owner && refusedBy(outcome.getDetails(), worker) && awaitRoom(size)) {
            return true;
        }
        reservation.shrink(size);
        return false;
    }

    /**
     * Whether {@code allocator}'s limit refused an allocation, from its outcome's details (Arrow's
     * {@code OutOfMemoryException} carries them too): the worker's, as opposed to a task's own limit.
     */
    public static boolean refusedBy(Optional<AllocationOutcomeDetails> details, BufferAllocator allocator) {
        return details.map(d -> d.getFailedAllocator() == allocator).orElse(false);
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
            long mine = Math.max(0, reservation.size() - size);
            long left = deadline - System.nanoTime();
            if (worker.getAllocatedMemory() <= mine || mine + size > worker.getLimit() || left <= 0) {
                return false; // nobody else to wait for, too large even alone, or waited long enough
            }
            try {
                if (!budget.awaitRelease(seen, left)) {
                    return false;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // a cancelled task: the allocation fails, the task stops
                return false;
            }
        }
    }

    @Override
    public void onRelease(long size) {
        reservation.shrink(size);
    }
}
