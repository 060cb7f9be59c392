package io.sluice.operators.memory;

import static java.util.Objects.requireNonNull;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One worker's memory ({@code sluice.worker.memory}), shared by the tasks running on it: each task
 * draws from it through its own {@link TaskMemoryPool} and gives everything back when it ends.
 * Arrow buffers and the heap structures that grow with the data (hash tables, sort buffers, join
 * build sides, shuffle buffers) both count against it, so one number bounds what a worker's tasks
 * hold.
 *
 * <p>Growth that can spill is shared fairly, as DataFusion's {@code FairSpillPool} does: a task
 * may hold at most the {@link #SPILLABLE_SHARE spillable share} divided by the tasks open now
 * ({@link #fairShare}), so a task that started first cannot starve the ones after it; a task
 * alone may use all of it. Growth that cannot wait for a spill takes from the whole budget,
 * first come first served; when the budget is short only because other tasks hold memory, it
 * waits a bounded time for them to give some back ({@link #awaitRelease}), as Spark's execution
 * memory pool makes a task wait for its share, rather than failing on a moment's contention.
 */
public final class MemoryBudget {
    private final String name;
    private final long limit;
    private final AtomicLong reserved = new AtomicLong();
    private final Set<TaskMemoryPool> pools = ConcurrentHashMap.newKeySet();
    /** Bumped on every release: a waiter that saw one value waits until it changes. */
    private final AtomicLong releases = new AtomicLong();
    private final AtomicInteger waiters = new AtomicInteger();
    private final Object released = new Object();

    public MemoryBudget(String name, long limit) {
        this.name = requireNonNull(name, "name is null");
        if (limit <= 0) {
            throw new IllegalArgumentException("a memory budget must be positive: " + limit);
        }
        this.limit = limit;
    }

    /** A budget that never refuses (tests and tools that run an operator outside a worker). */
    public static MemoryBudget unlimited() {
        return new MemoryBudget("unlimited", Long.MAX_VALUE);
    }

    /** A new pool for one task; close it when the task ends, whatever the outcome. */
    public TaskMemoryPool newTaskPool(String taskId) {
        TaskMemoryPool pool = new TaskMemoryPool(taskId, this);
        pools.add(pool);
        return pool;
    }

    /**
     * A pool for memory that outlives any one task: a hash join's build shared by the tasks of a
     * stage on this worker ({@code SharedBuildCache}). It draws on this budget like a task's pool,
     * but is not one of the open tasks that {@link #fairShare} divides among, since it runs no work
     * of its own; its owner closes it when the last task using it is done.
     */
    public TaskMemoryPool newSharedPool(String name) {
        return new TaskMemoryPool(name, this);
    }

    public String name() {
        return name;
    }

    public long limit() {
        return limit;
    }

    /** Bytes reserved by all tasks now. */
    public long reserved() {
        return reserved.get();
    }

    /** Task pools not closed yet. */
    public int openPools() {
        return pools.size();
    }

    /**
     * Share of the budget that growth operators may be refused at ({@link MemoryReservation#tryGrow}):
     * spilling operators stop at three quarters, leaving the rest to what cannot wait for a spill
     * (Arrow buffers being read or written, a batch that must be taken after a spill).
     */
    public static final double SPILLABLE_SHARE = 0.75;

    boolean tryReserve(long bytes, boolean spillable) {
        long cap = spillable ? (long) (limit * SPILLABLE_SHARE) : limit;
        while (true) {
            long now = reserved.get();
            if (now + bytes > cap || now + bytes < 0) {
                return false;
            }
            if (reserved.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    /** The most one task may hold for growth that can spill: the spillable share over the open tasks. */
    long fairShare() {
        return (long) (limit * SPILLABLE_SHARE / Math.max(1, pools.size()));
    }

    /** Takes {@code bytes} even past the limit (Arrow buffers: counted, so operators spill sooner, never refused). */
    void forceReserve(long bytes) {
        reserved.addAndGet(bytes);
    }

    void release(long bytes) {
        reserved.addAndGet(-bytes);
        releases.incrementAndGet();
        if (waiters.get() > 0) {
            synchronized (released) {
                released.notifyAll();
            }
        }
    }

    /** How many releases there have been: read before asking, passed to {@link #awaitRelease}. */
    long releaseCount() {
        return releases.get();
    }

    /**
     * Waits until memory is released after {@code seen} (a {@link #releaseCount}) or {@code nanos}
     * pass; false if the time ran out with nothing released. Waiting takes no lock of a task or
     * reservation, so the tasks it waits on can free what they hold.
     */
    boolean awaitRelease(long seen, long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        waiters.incrementAndGet();
        try {
            synchronized (released) {
                while (releases.get() == seen) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return false;
                    }
                    TimeUnit.NANOSECONDS.timedWait(released, left);
                }
                return true;
            }
        } finally {
            waiters.decrementAndGet();
        }
    }

    void closed(TaskMemoryPool pool) {
        pools.remove(pool);
    }
}
