package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Tasks waiting for a slot, in the order {@code sluice.scheduler.mode} asks: {@code fifo} serves
 * them in arrival order (a job's tasks all go before a later job's, as Spark's FIFO mode), {@code
 * fair} serves next the job with the fewest attempts running, so a short query submitted behind a
 * long one starts as soon as a slot frees instead of after the long one's last task. Retries go
 * first in their job's line either way. Not thread-safe: the dispatcher actor owns it.
 */
final class TaskQueue<T> {
    private final SchedulingMode mode;
    private final Function<T, String> jobOf;
    private final ArrayDeque<T> fifo = new ArrayDeque<>();
    /** FAIR: each job's queued tasks, jobs in turn order. */
    private final LinkedHashMap<String, ArrayDeque<T>> byJob = new LinkedHashMap<>();
    private final Map<String, Integer> running = new HashMap<>();
    private int size;

    TaskQueue(SchedulingMode mode, Function<T, String> jobOf) {
        this.mode = requireNonNull(mode, "mode is null");
        this.jobOf = requireNonNull(jobOf, "jobOf is null");
    }

    void add(T task) {
        if (mode == SchedulingMode.FIFO) {
            fifo.addLast(task);
        } else {
            byJob.computeIfAbsent(jobOf.apply(task), j -> new ArrayDeque<>()).addLast(task);
        }
        size++;
    }

    /** A retry: first in line (of its job, in fair mode). */
    void addFirst(T task) {
        if (mode == SchedulingMode.FIFO) {
            fifo.addFirst(task);
        } else {
            byJob.computeIfAbsent(jobOf.apply(task), j -> new ArrayDeque<>()).addFirst(task);
        }
        size++;
    }

    /** The task to serve next, or null when none waits. */
    T peek() {
        if (mode == SchedulingMode.FIFO) {
            return fifo.peekFirst();
        }
        String job = nextJob();
        return job == null ? null : byJob.get(job).peekFirst();
    }

    /** Removes and returns {@link #peek()}'s task; in fair mode its job goes to the end of the turn order. */
    T poll() {
        return poll(task -> true);
    }

    /**
     * Removes and returns the first task in serving order that {@code canStart} accepts, or null;
     * the tasks passed over (waiting for a slot on one of their hosts) keep their places. In fair
     * mode jobs are tried from the fewest attempts running, and the job served goes to the end of
     * the turn order.
     */
    T poll(Predicate<T> canStart) {
        if (mode == SchedulingMode.FIFO) {
            for (Iterator<T> it = fifo.iterator(); it.hasNext(); ) {
                T task = it.next();
                if (canStart.test(task)) {
                    it.remove();
                    size--;
                    return task;
                }
            }
            return null;
        }
        List<String> jobs = new ArrayList<>(byJob.keySet());
        jobs.sort(Comparator.comparingInt(job -> running.getOrDefault(job, 0))); // stable: turn order on ties
        for (String job : jobs) {
            ArrayDeque<T> tasks = byJob.get(job);
            for (Iterator<T> it = tasks.iterator(); it.hasNext(); ) {
                T task = it.next();
                if (canStart.test(task)) {
                    it.remove();
                    byJob.remove(job);
                    if (!tasks.isEmpty()) {
                        byJob.put(job, tasks);
                    }
                    size--;
                    return task;
                }
            }
        }
        return null;
    }

    /** The job with the fewest running attempts among those with queued tasks; the earliest in turn on a tie. */
    private String nextJob() {
        String best = null;
        int fewest = Integer.MAX_VALUE;
        for (String job : byJob.keySet()) {
            int n = running.getOrDefault(job, 0);
            if (n < fewest) {
                best = job;
                fewest = n;
            }
        }
        return best;
    }

    /** An attempt of {@code job} started running. */
    void started(String job) {
        running.merge(job, 1, Integer::sum);
    }

    /** An attempt of {@code job} stopped running (ended, timed out, or its worker was lost). */
    void ended(String job) {
        running.computeIfPresent(job, (j, n) -> n <= 1 ? null : n - 1);
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    /** Calls {@code action} on every queued task, in no particular order. */
    void forEach(java.util.function.Consumer<? super T> action) {
        fifo.forEach(action);
        byJob.values().forEach(tasks -> tasks.forEach(action));
    }

    /** Removes and returns every queued task. */
    List<T> drain() {
        List<T> all = new ArrayList<>(fifo);
        fifo.clear();
        for (Iterator<ArrayDeque<T>> it = byJob.values().iterator(); it.hasNext(); ) {
            all.addAll(it.next());
            it.remove();
        }
        size = 0;
        return all;
    }
}
