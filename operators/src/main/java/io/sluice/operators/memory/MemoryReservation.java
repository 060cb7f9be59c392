package io.sluice.operators.memory;

import static java.util.Objects.requireNonNull;

/**
 * What one consumer (an operator of a task, or the task's Arrow buffers) holds of its task's
 * {@link TaskMemoryPool}, after DataFusion's {@code MemoryReservation}: {@link #tryGrow} asks and
 * may be refused (a spilling operator then spills), {@link #grow} must get it or fails the task
 * with a {@link MemoryLimitException} naming the consumer, its usage and the limit, {@link #shrink}
 * gives some back, and {@link #close} gives everything back. Thread-safe: Arrow buffers of a task
 * may be allocated and released on the shuffle client's threads.
 */
public final class MemoryReservation implements AutoCloseable {
    private final TaskMemoryPool pool;
    private final String consumer;
    private final MemoryMetricsSink metrics;
    private long size;
    private long peak;
    private boolean closed;

    MemoryReservation(TaskMemoryPool pool, String consumer, MemoryMetricsSink metrics) {
        this.pool = requireNonNull(pool, "pool is null");
        this.consumer = requireNonNull(consumer, "consumer is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    public String consumer() {
        return consumer;
    }

    /** The worker's budget this reservation draws on. */
    MemoryBudget budget() {
        return pool.budget();
    }

    /** Bytes held now. */
    public synchronized long size() {
        return size;
    }

    /** The most held at once. */
    public synchronized long peak() {
        return peak;
    }

    /**
     * Takes {@code bytes} more if the budget has them within its spillable share
     * ({@link MemoryBudget#SPILLABLE_SHARE}); false (and nothing taken) if not: the caller spills.
     */
    public synchronized boolean tryGrow(long bytes) {
        return take(bytes, true);
    }

    /**
     * Whether its task and the worker are still within their spillable shares, counting what is
     * held without a reservation (Arrow buffers): what a growth would be told, asked without
     * growing. An operator whose buffers grow only through Arrow asks this to know when to spill.
     */
    public synchronized boolean withinShare() {
        return !closed && pool.tryGrow(0, true);
    }

    /**
     * The most its task may hold now for growth that can spill: the worker's spillable share over
     * the tasks open on it (it falls as tasks start). A consumer that holds memory ahead of its use
     * (a buffer promised to a later write) sizes it to a part of this, so that what is held ahead
     * never crowds out what the task's data needs.
     */
    public long fairShare() {
        return pool.budget().fairShare();
    }

    /**
     * Takes {@code bytes} more from the whole budget or throws a {@link MemoryLimitException} naming
     * this consumer. When the worker is short only because other tasks hold memory (this task
     * alone would fit), it first waits up to {@link #CONTENTION_WAIT_NANOS} for them to release
     * some: their Arrow buffers count even past the limit, so a moment's overlap of two tasks'
     * batches must not fail a task that fits.
     */
    public void grow(long bytes) {
        check(bytes);
        long deadline = System.nanoTime() + CONTENTION_WAIT_NANOS;
        while (true) {
            long seen = pool.budget().releaseCount();
            synchronized (this) {
                if (take(bytes, false)) {
                    return;
                }
                long left = deadline - System.nanoTime();
                if (closed || left <= 0 || !pool.othersCouldMakeRoomFor(bytes)) {
                    throw pool.refused(consumer, size, bytes);
                }
            }
            try {
                pool.budget().awaitRelease(seen, deadline - System.nanoTime());
            } catch (InterruptedException e) {
                // a cancelled task: the cause says so, the message still names what was asked
                Thread.currentThread().interrupt();
                synchronized (this) {
                    MemoryLimitException refused = pool.refused(consumer, size, bytes);
                    refused.initCause(e);
                    throw refused;
                }
            }
        }
    }

    /** The longest {@link #grow} waits for other tasks to release memory before it fails. */
    static final long CONTENTION_WAIT_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(5);

    /** Takes {@code bytes} more whatever the budget says (Arrow buffers already being allocated). */
    public synchronized void forceGrow(long bytes) {
        check(bytes);
        if (closed || bytes == 0) {
            return;
        }
        pool.forceGrow(bytes);
        grew(bytes);
    }

    private boolean take(long bytes, boolean spillable) {
        check(bytes);
        if (bytes == 0) {
            return true;
        }
        if (closed || !pool.tryGrow(bytes, spillable)) {
            return false;
        }
        grew(bytes);
        return true;
    }

    private void grew(long bytes) {
        size += bytes;
        if (size > peak) {
            peak = size;
            metrics.peakMemory(peak);
        }
    }

    /** Gives {@code bytes} back (at most what is held). */
    public synchronized void shrink(long bytes) {
        check(bytes);
        long give = Math.min(bytes, size);
        if (give > 0) {
            size -= give;
            pool.shrink(give);
        }
    }

    /** Grows (as {@link #grow} does) or shrinks to exactly {@code newSize}; throws if growing is refused. */
    public void resize(long newSize) {
        check(newSize);
        long more;
        synchronized (this) {
            if (newSize <= size) {
                shrink(size - newSize);
                return;
            }
            more = newSize - size;
        }
        grow(more);
    }

    /** Grows (within the spillable share) or shrinks to exactly {@code newSize}; false (size unchanged) if refused. */
    public synchronized boolean tryResize(long newSize) {
        check(newSize);
        if (newSize > size) {
            return tryGrow(newSize - size);
        }
        shrink(size - newSize);
        return true;
    }

    /** Gives everything back; the reservation stays usable. */
    public synchronized void free() {
        shrink(size);
    }

    /** Reports a spill of {@code bytes} that took {@code nanos} to this consumer's metrics. */
    public void recordSpill(long bytes, long nanos) {
        pool.spilled(bytes);
        metrics.spilled(bytes, nanos);
    }

    /** Gives everything back and leaves the pool. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        free();
        closed = true;
        pool.unregister(this);
    }

    /** The refusal this reservation would report when asking for {@code bytes} more (for operators that must stop). */
    public synchronized MemoryLimitException refusal(long bytes) {
        return pool.refused(consumer, size, bytes);
    }

    private static void check(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative memory amount " + bytes);
        }
    }
}
