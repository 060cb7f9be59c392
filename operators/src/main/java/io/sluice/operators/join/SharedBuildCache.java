package io.sluice.operators.join;

import static java.util.Objects.requireNonNull;

import io.sluice.kernels.Cancellation;
import io.sluice.operators.memory.MemoryBudget;
import io.sluice.operators.memory.TaskMemoryPool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Hash tables of broadcast joins built once per stage on a worker and shared by the stage's tasks
 * there, as Spark builds a broadcast relation once per executor. Every task of a broadcast join's
 * stage reads the whole broadcast side, so without sharing a worker running {@code n} of them
 * builds the same table {@code n} times (TPC-H q21 at sf 1 built 729,000 order keys nine times).
 *
 * <p>One cache per worker. A task sees it through {@link #forStage} (a node service of its {@code
 * TaskContext}); a table is keyed by the stage (its shuffle id, unique per job) and by a text that
 * determines the table (the join and its build side's plan, see {@code HashJoinExec}). The first
 * task to ask builds; tasks asking meanwhile wait for that build, checking their own cancellation
 * as they wait, and use it when ready. The build's memory is reserved once, in a pool of the
 * worker's {@link MemoryBudget} that belongs to no task ({@link MemoryBudget#newSharedPool}).
 *
 * <p>Lifetime: each task holds a {@link Lease} while it probes; the table stays while any lease is
 * open, and after the last one it stays for the stage's later tasks on this worker until the job
 * ends ({@link #stagesEnded}, on the coordinator's removal of the job's shuffles), when its memory
 * goes back to the budget. A table whose stage has already ended is freed with its last lease. A
 * table no task has used for {@code idleEviction} ({@link #DEFAULT_IDLE_EVICTION}) is dropped too
 * (when a task starts, or on the next acquire), so a job's end the worker never heard of does not
 * hold its memory until the worker stops. The tables are read-only once built, so tasks probe one
 * at the same time without copies; a table that is {@link AutoCloseable} (it holds Arrow memory)
 * is closed when it is dropped, after its last lease.
 *
 * <p>Failure: a build that throws is dropped (its memory freed at once) and its error is the
 * builder's; the tasks waiting for it try again, one of them building, so they get a table or
 * their own error, never a hang. A wait is bounded ({@code maxWait}): past it the task builds a
 * table of its own, as it would without the cache. A build that does not fit in memory returns
 * no table ({@code null}): every task of the stage then builds its own, which may spill.
 */
public final class SharedBuildCache {
    /** How long a task waits for another's build before building its own, by default. */
    public static final Duration DEFAULT_MAX_WAIT = Duration.ofMinutes(2);
    private static final int REMEMBERED_ENDED_STAGES = 10_000;
    private static final long POLL_MILLIS = 50;
    /** How long a table no task uses is kept without its job's end being heard of, by default. */
    public static final Duration DEFAULT_IDLE_EVICTION = Duration.ofMinutes(5);
    private static final Object NOT_SHARED = new Object();

    private final MemoryBudget budget;
    private final long maxWaitNanos;
    private final long idleEvictionNanos;
    private final Map<Key, Entry> entries = new HashMap<>();
    private final Set<String> endedStages = new LinkedHashSet<>();
    private long builds;
    private boolean closed;

    public SharedBuildCache(MemoryBudget budget) {
        this(budget, DEFAULT_MAX_WAIT);
    }

    public SharedBuildCache(MemoryBudget budget, Duration maxWait) {
        this(budget, maxWait, DEFAULT_IDLE_EVICTION);
    }

    public SharedBuildCache(MemoryBudget budget, Duration maxWait, Duration idleEviction) {
        this.budget = requireNonNull(budget, "budget is null");
        if (maxWait.isNegative() || idleEviction.isNegative()) {
            throw new IllegalArgumentException("maxWait and idleEviction must not be negative: " + maxWait + ", "
                    + idleEviction);
        }
        // clamped so that a deadline (now + wait) cannot overflow
        this.maxWaitNanos = Math.min(maxWait.toNanos(), Long.MAX_VALUE / 4);
        this.idleEvictionNanos = idleEviction.toNanos();
    }

    /** Builds a table in the pool given; null when it does not fit (every task then builds its own). */
    @FunctionalInterface
    public interface Builder<T> {
        T build(TaskMemoryPool pool);
    }

    /** The view of one stage's tasks, put in their {@code TaskContext} as a node service. */
    public Stage forStage(String stageId) {
        return new Stage(requireNonNull(stageId, "stageId is null"));
    }

    /** Tables held now (in use or kept for their stage). */
    public synchronized int size() {
        return entries.size();
    }

    /** Tables built since this cache was made (each once, however many tasks used it). */
    public synchronized long builds() {
        return builds;
    }

    /**
     * The stages (their shuffle ids) of a job that ended: their tables are dropped, freed now or
     * when the last task still using one is done, and tables a late task of theirs builds are not
     * kept.
     */
    public void stagesEnded(Collection<String> stageIds) {
        List<Entry> free = new ArrayList<>();
        synchronized (this) {
            for (String id : stageIds) {
                endedStages.add(id);
                if (endedStages.size() > REMEMBERED_ENDED_STAGES) {
                    endedStages.remove(endedStages.iterator().next());
                }
            }
            Set<String> ended = Set.copyOf(stageIds);
            entries.values().removeIf(e -> {
                if (!ended.contains(e.key.stage)) {
                    return false;
                }
                evict(e, free);
                return true;
            });
        }
        free.forEach(SharedBuildCache::free);
    }

    /**
     * Drops the tables no task has used for the idle bound (see {@link #sweepIdle}); the worker
     * calls it as each task starts, so memory held for a job whose end was never heard of comes
     * back even when no later task asks for a shared table.
     */
    public void evictIdle() {
        List<Entry> idle;
        synchronized (this) {
            idle = sweepIdle();
        }
        idle.forEach(SharedBuildCache::free);
    }

    /** Drops every table (the worker stops); those in use are freed with their last lease. */
    public void close() {
        List<Entry> free = new ArrayList<>();
        synchronized (this) {
            closed = true;
            entries.values().forEach(e -> evict(e, free));
            entries.clear();
        }
        free.forEach(SharedBuildCache::free);
    }

    private void evict(Entry e, List<Entry> free) {
        e.evicted = true;
        if (e.refs == 0) {
            free.add(e);
        }
    }

    private void release(Entry e) {
        boolean free;
        synchronized (this) {
            e.refs--;
            free = e.refs == 0 && e.evicted;
            if (e.refs == 0) {
                e.idleSince = System.nanoTime();
            }
        }
        if (free) {
            free(e);
        }
    }

    /** Gives a dropped table's memory back: its reservation, and what the table holds when it is closeable. */
    private static void free(Entry e) {
        try {
            if (e.done.isDone() && !e.done.isCompletedExceptionally() && e.done.getNow(null) instanceof AutoCloseable table) {
                table.close();
            }
        } catch (Exception failed) {
            throw new IllegalStateException("closing a shared hash join build", failed);
        } finally {
            e.pool.release();
        }
    }

    /**
     * Drops the tables no task has used for {@code idleEviction} ({@link #DEFAULT_IDLE_EVICTION}): their job's end was never
     * heard of (a worker that was thought lost and came back misses the coordinator's removal of
     * the job's shuffles), so they would otherwise hold the worker's memory until it stops.
     * Called under the lock on every acquire and by {@link #evictIdle}; returns the entries to free
     * outside it. (A pool may be released twice, by a failed build and its last lease: releasing a
     * closed pool does nothing.)
     */
    private List<Entry> sweepIdle() {
        List<Entry> free = new ArrayList<>();
        long now = System.nanoTime();
        entries.values().removeIf(e -> {
            if (e.refs > 0 || !e.done.isDone() || now - e.idleSince < idleEvictionNanos) {
                return false;
            }
            evict(e, free);
            return true;
        });
        return free;
    }

    /** A build that threw: dropped, its memory freed, its waiters told to try again. */
    private void failed(Entry e, Throwable error) {
        synchronized (this) {
            entries.remove(e.key, e);
            e.evicted = true;
        }
        e.pool.release();
        e.done.completeExceptionally(error);
        release(e);
    }

    private record Key(String stage, String build) {
    }

    private static final class Entry {
        final Key key;
        final TaskMemoryPool pool;
        final CompletableFuture<Object> done = new CompletableFuture<>();
        int refs; // guarded by the cache
        long idleSince = System.nanoTime(); // guarded by the cache: when refs last fell to 0
        boolean evicted; // guarded by the cache: out of the map, freed with its last lease

        Entry(Key key, TaskMemoryPool pool) {
            this.key = key;
            this.pool = pool;
        }
    }

    /** One task's use of a shared table: close it when the task's probing is done. */
    public final class Lease<T> implements AutoCloseable {
        private final Entry entry;
        private final T value;
        private final AtomicBoolean closed = new AtomicBoolean();

        private Lease(Entry entry, T value) {
            this.entry = entry;
            this.value = value;
        }

        public T value() {
            return value;
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                release(entry);
            }
        }
    }

    /** What the tasks of one stage see. */
    public final class Stage {
        private final String stageId;

        private Stage(String stageId) {
            this.stageId = stageId;
        }

        public String stageId() {
            return stageId;
        }

        /**
         * The table {@code build} names, built by {@code builder} if no task of the stage on this
         * worker built or is building it; null when the task should build its own (the table does
         * not fit in memory, or waiting for another task's build took past the bound). Throws the
         * builder's error when this task built and failed, and {@link
         * io.sluice.operators.TaskCancelledException} when this task is cancelled while waiting.
         */
        @SuppressWarnings("unchecked")
        public <T> Lease<T> acquire(String build, Cancellation cancellation, Builder<T> builder) {
            Key key = new Key(stageId, requireNonNull(build, "build is null"));
            long deadline = System.nanoTime() + maxWaitNanos;
            while (System.nanoTime() - deadline < 0) {
                Entry e;
                boolean mine = false;
                List<Entry> idle;
                synchronized (SharedBuildCache.this) {
                    if (closed) {
                        return null;
                    }
                    idle = sweepIdle();
                    e = entries.get(key);
                    if (e == null) {
                        e = new Entry(key, budget.newSharedPool("shared hash join build of " + stageId));
                        if (endedStages.contains(stageId)) {
                            e.evicted = true;
                        } else {
                            entries.put(key, e);
                        }
                        mine = true;
                    }
                    e.refs++;
                }
                idle.forEach(SharedBuildCache::free);
                if (mine) {
                    return build(e, builder);
                }
                Object value;
                try {
                    value = await(e, cancellation, deadline);
                } catch (RuntimeException | Error t) {
                    release(e);
                    throw t;
                }
                if (value == null || value == NOT_SHARED) {
                    release(e);
                    if (value == null) {
                        continue; // the build failed: try again (this task may build)
                    }
                    return null;
                }
                return new Lease<>(e, (T) value);
            }
            return null;
        }

        private <T> Lease<T> build(Entry e, Builder<T> builder) {
            T value;
            try {
                value = builder.build(e.pool);
            } catch (RuntimeException | Error t) {
                failed(e, t);
                throw t;
            }
            synchronized (SharedBuildCache.this) {
                builds++;
            }
            if (value == null) {
                e.pool.release(); // nothing kept: the tasks build their own
                e.done.complete(NOT_SHARED);
                release(e);
                return null;
            }
            e.done.complete(value);
            return new Lease<>(e, value);
        }

        /** The built value, {@link #NOT_SHARED}, or null when the build failed or the deadline passed. */
        private Object await(Entry e, Cancellation cancellation, long deadline) {
            while (true) {
                cancellation.checkNotCancelled();
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return e.done.isDone() && !e.done.isCompletedExceptionally() ? e.done.getNow(null) : NOT_SHARED;
                }
                try {
                    return e.done.get(Math.min(TimeUnit.NANOSECONDS.toMillis(left) + 1, POLL_MILLIS), TimeUnit.MILLISECONDS);
                } catch (TimeoutException timeout) {
                    // check the cancellation and the deadline again
                } catch (ExecutionException failed) {
                    // the builder's own task reports its failure; this one builds its table itself
                    return null;
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new io.sluice.operators.TaskCancelledException("waiting for a shared hash join build");
                }
            }
        }
    }
}
