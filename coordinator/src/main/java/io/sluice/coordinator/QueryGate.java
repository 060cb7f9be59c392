package io.sluice.coordinator;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * At most {@code limit} queries run at once through the gate; one more waits up to {@code wait} for
 * a turn (fairly, first come first served) and is then turned away as busy. The coordinator's HTTP
 * endpoint runs every query through one gate, so a flood of requests queues briefly and is then
 * refused, instead of starting unbounded work.
 */
final class QueryGate {
    private final Semaphore permits;
    private final Duration wait;

    QueryGate(int limit, Duration wait) {
        if (limit < 1) {
            throw new IllegalArgumentException("the concurrent query limit must be at least 1: " + limit);
        }
        if (wait.isNegative()) {
            throw new IllegalArgumentException("negative wait " + wait);
        }
        this.permits = new Semaphore(limit, true);
        this.wait = wait;
    }

    /** What a call through the gate gave: the work's result, or busy (null result). */
    record Outcome<T>(T result, boolean busy) {
    }

    /**
     * Takes a turn, waiting up to the gate's wait; false when none came (busy). A true answer must
     * be matched by one {@link #leave()}: for work that outlives the call that started it (a result
     * streamed to its client).
     */
    boolean enter() {
        try {
            return permits.tryAcquire(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Gives back a turn taken by {@link #enter()}. */
    void leave() {
        permits.release();
    }

    /** Runs {@code work} when a turn comes within the wait; otherwise answers busy without running it. */
    <T> Outcome<T> run(Supplier<T> work) {
        try {
            if (!permits.tryAcquire(wait.toNanos(), TimeUnit.NANOSECONDS)) {
                return new Outcome<>(null, true);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome<>(null, true);
        }
        try {
            return new Outcome<>(work.get(), false);
        } finally {
            permits.release();
        }
    }
}
