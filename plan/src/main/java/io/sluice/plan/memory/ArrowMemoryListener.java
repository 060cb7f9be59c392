package io.sluice.plan.memory;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.memory.AllocationListener;
import org.apache.arrow.memory.AllocationOutcome;

/**
 * Makes a task's Arrow allocations draw from its memory pool: set on the task's allocator (its
 * child allocators inherit it), each allocation first grows the task's "Arrow buffers"
 * reservation (a refusal fails the allocation with a {@link MemoryLimitException}) and each
 * release shrinks it.
 */
public final class ArrowMemoryListener implements AllocationListener {
    private final MemoryReservation reservation;

    public ArrowMemoryListener(MemoryReservation reservation) {
        this.reservation = requireNonNull(reservation, "reservation is null");
    }

    @Override
    public void onPreAllocation(long size) {
        reservation.grow(size);
    }

    @Override
    public boolean onFailedAllocation(long size, AllocationOutcome outcome) {
        reservation.shrink(size);
        return false;
    }

    @Override
    public void onRelease(long size) {
        reservation.shrink(size);
    }
}
