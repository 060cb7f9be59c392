package io.sluice.coordinator;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Exclude-on-failure, as Spark's: a worker whose attempts failed {@code maxFailures} times within
 * {@code windowMillis} is excluded for {@code windowMillis}, so a worker with a bad disk or a
 * broken environment stops eating every task's attempts. Times are given by the caller (millis on
 * any monotonic clock), so the rule is tested without waiting. Not thread-safe: the dispatcher
 * actor owns it.
 */
final class ExcludeList {
    private final int maxFailures;
    private final long windowMillis;
    private final Map<String, Deque<Long>> failures = new HashMap<>();
    /** Excluded workers and when their exclusion ends. */
    private final Map<String, Long> excludedUntil = new TreeMap<>();

    ExcludeList(int maxFailures, long windowMillis) {
        if (maxFailures < 1) {
            throw new IllegalArgumentException("maxFailures must be at least 1: " + maxFailures);
        }
        if (windowMillis < 0) {
            throw new IllegalArgumentException("windowMillis must not be negative: " + windowMillis);
        }
        this.maxFailures = maxFailures;
        this.windowMillis = windowMillis;
    }

    /** Records a failed attempt on {@code worker}; true when this failure excludes it. */
    boolean recordFailure(String worker, long now) {
        if (windowMillis == 0 || isExcluded(worker, now)) {
            return false;
        }
        Deque<Long> times = failures.computeIfAbsent(worker, w -> new ArrayDeque<>());
        times.addLast(now);
        while (!times.isEmpty() && times.peekFirst() <= now - windowMillis) {
            times.pollFirst();
        }
        if (times.size() < maxFailures) {
            return false;
        }
        failures.remove(worker);
        excludedUntil.put(worker, now + windowMillis);
        return true;
    }

    boolean isExcluded(String worker, long now) {
        Long until = excludedUntil.get(worker);
        if (until == null) {
            return false;
        }
        if (until <= now) {
            excludedUntil.remove(worker);
            return false;
        }
        return true;
    }

    /** The workers excluded at {@code now}, by id. */
    List<String> excluded(long now) {
        excludedUntil.values().removeIf(until -> until <= now);
        return List.copyOf(excludedUntil.keySet());
    }

    /** A worker that left is forgotten: a new incarnation starts clean. */
    void forget(String worker) {
        failures.remove(worker);
        excludedUntil.remove(worker);
    }
}
