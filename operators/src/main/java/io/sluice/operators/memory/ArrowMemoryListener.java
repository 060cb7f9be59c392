package io.sluice.operators.memory;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.memory.AllocationListener;
import org.apache.arrow.memory.AllocationOutcome;

/**
 * Makes a task's Arrow allocations count against its memory pool: set on the task's allocator (its
 * child allocators inherit it), each allocation grows the task's "Arrow buffers" reservation and
 * each release shrinks it. Arrow allocations are never refused here (they are counted, so spilling
 * operators meet their limit sooner): a refusal in the middle of decoding or encoding a batch, on a
 * shuffle client thread, would leave half-built vectors behind. The root allocator's limit, the
 * worker's memory, still bounds them.
 */
public final class ArrowMemoryListener implements AllocationListener {
    private final MemoryReservation reservation;

    public ArrowMemoryListener(MemoryReservation reservation) {
        this.reservation = requireNonNull(reservation, "reservation is null");
    }

    @Override
    public void onPreAllocation(long size) {
        reservation.forceGrow(size);
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
