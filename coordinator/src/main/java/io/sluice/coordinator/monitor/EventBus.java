package io.sluice.coordinator.monitor;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries {@link QueryEvent}s from the scheduler, the dispatcher actor and the query threads to
 * the listeners (the query store, the event log, the metrics) on one thread of its own.
 *
 * <p>Posting never blocks and never fails: the queue is bounded ({@code capacity} events), and an
 * event posted while it is full is dropped and counted ({@link #dropped()}), so a slow listener
 * (a disk that stalls the event log) costs the monitoring data, never the scheduler's time. A
 * listener that throws is logged and keeps getting later events; it never fails a query.
 */
public final class EventBus implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EventBus.class);

    /** The bus of a coordinator without monitoring: posting does nothing. */
    public static final EventBus NONE = new EventBus();

    /** Events, and {@link #WAKE_UP} when the bus closes (so that its thread stops at once, not at its next poll). */
    private final BlockingQueue<Object> queue;
    private static final Object WAKE_UP = new Object();
    private final List<EventListener> listeners = new CopyOnWriteArrayList<>();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final Thread thread;
    private volatile boolean stopping;

    private EventBus() {
        this.queue = null;
        this.thread = null;
    }

    public EventBus(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
        }
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.thread = new Thread(this::deliver, "sluice-event-bus");
        thread.setDaemon(true);
        thread.start();
    }

    public void addListener(EventListener listener) {
        listeners.add(requireNonNull(listener, "listener is null"));
    }

    /** Queues the event for the listeners; drops it (counted) when the queue is full. Never blocks. */
    public void post(QueryEvent event) {
        if (queue == null) {
            return;
        }
        if (queue.offer(event)) {
            accepted.incrementAndGet();
        } else {
            dropped.incrementAndGet();
        }
    }

    /** Events dropped because the queue was full. */
    public long dropped() {
        return dropped.get();
    }

    /** Listener calls that threw. */
    public long listenerFailures() {
        return failures.get();
    }

    /** Waits (at most {@code millis}) until every event posted so far has been delivered; true if it was. */
    public boolean drain(long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (queue != null && delivered.get() < accepted.get()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    private void deliver() {
        while (!stopping || !queue.isEmpty()) {
            QueryEvent event;
            try {
                Object next = queue.poll(100, TimeUnit.MILLISECONDS);
                if (!(next instanceof QueryEvent queued)) {
                    continue; // none yet, or close()'s wake-up: deliver what is left, then stop
                }
                event = queued;
            } catch (InterruptedException e) {
                continue;
            }
            try {
                for (EventListener listener : listeners) {
                    try {
                        listener.onEvent(event);
                    } catch (RuntimeException e) {
                        if (failures.getAndIncrement() == 0) {
                            LOG.warn("a monitoring listener failed on {} (later failures are counted only): {}",
                                    event.getClass().getSimpleName(), e.toString());
                        }
                    }
                }
            } finally {
                delivered.incrementAndGet();
            }
        }
    }

    /** Delivers what is queued (waiting at most 10 s), then closes the listeners. */
    @Override
    public void close() {
        if (thread == null) {
            return;
        }
        stopping = true;
        queue.offer(WAKE_UP); // when full, the thread is busy delivering and sees stopping as it empties the queue
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (EventListener listener : listeners) {
            try {
                listener.close();
            } catch (RuntimeException e) {
                LOG.warn("a monitoring listener failed to close: {}", e.toString());
            }
        }
    }
}
