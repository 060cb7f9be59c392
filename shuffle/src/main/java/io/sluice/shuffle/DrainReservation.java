package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;

/**
 * The memory a {@link MapOutputWriter}'s drain is promised: a child of the task's allocator that
 * holds a reservation there (so in the worker's), which allocations of other operators or tasks
 * cannot take; the drain allocates its batches in it. When a larger reservation is refused it
 * keeps the most it can get, halving down to {@link DrainFootprint#LEAST_BATCH_BYTES}. Not
 * thread-safe: one per writer.
 */
final class DrainReservation implements AutoCloseable {
    private final BufferAllocator task;
    private final String name;
    /** The child holding {@link #headroom} reserved; null when nothing is. */
    private BufferAllocator reserved;
    private long headroom;

    /** A reservation, empty until {@link #reserve}, in {@code task}, named for map {@code map}. */
    DrainReservation(BufferAllocator task, int map) {
        this.task = requireNonNull(task, "task is null");
        this.name = "shuffle drain of map " + map;
    }

    /**
     * Makes at least {@code bytes} reserved, and never less than {@link DrainFootprint#LEAST_BATCH_BYTES}
     * (the smallest batch a drain cuts to, so that it is reserved too). When refused, keeps the most
     * it can get (halving, not below that least batch, never less than it held) and answers false:
     * the caller spills while what it holds still fits (a drain writes smaller batches to stay
     * within what it has, see {@link PartitionBuffer#drain}).
     */
    boolean reserve(long bytes) {
        long want = Math.max(bytes, DrainFootprint.LEAST_BATCH_BYTES);
        for (long ask = want; ask > headroom && (ask == want || ask >= DrainFootprint.LEAST_BATCH_BYTES); ask /= 2) {
            if (take(ask)) {
                return bytes <= headroom;
            }
        }
        // short of even the least batch: a small ask may still fit
        return bytes <= headroom || take(bytes);
    }

    /**
     * Gives back what it holds beyond {@code most} (the task's share fell as tasks started): holds
     * {@code most} instead, or nothing when even that is refused (the next {@link #reserve} asks again).
     */
    void shrinkTo(long most) {
        if (headroom > most) {
            close();
            take(most);
        }
    }

    /** Holds {@code ask} bytes reserved instead of what it held; false (nothing changed) if refused. */
    private boolean take(long ask) {
        BufferAllocator child;
        try {
            child = task.newChildAllocator(name, ask, Long.MAX_VALUE);
        } catch (OutOfMemoryException e) {
            return false;
        }
        close();
        reserved = child;
        headroom = ask;
        return true;
    }

    /** The bytes reserved. */
    long headroom() {
        return headroom;
    }

    /** Where a drain allocates: the reserved child, or the task's allocator while nothing is reserved. */
    BufferAllocator allocator() {
        return reserved == null ? task : reserved;
    }

    /** Returns the reservation (what a drain allocated in it must be closed first). */
    @Override
    public void close() {
        if (reserved != null) {
            reserved.close();
            reserved = null;
            headroom = 0;
        }
    }
}
