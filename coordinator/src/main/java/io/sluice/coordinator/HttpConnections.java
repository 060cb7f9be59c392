package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.common.net.UnprovenConnections;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The coordinator's open HTTP connections and the limits that keep a client without the secret
 * from exhausting them. A new connection is unproven: it counts against {@link UnprovenConnections}
 * (per address and in total; the oldest is closed to admit a new one) and is closed when it has not
 * proven the secret {@link UnprovenConnections.Limits#deadline()} after it opened, however slowly
 * it sends its header. A connection proves the secret with a request that carries it (any request,
 * when the cluster has none); from then on it no longer counts against those limits, so an
 * authenticated client's connections never compete with a flood, and it is closed only after
 * {@code idleTimeout} with no request running and no answer being sent. A request's own run time
 * is bounded by the job timeout, not by the idle timeout. Thread-safe.
 */
final class HttpConnections implements AutoCloseable {
    private final UnprovenConnections unproven;
    private final Duration idleTimeout;
    private final Set<Connection> open = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService timer;
    private final LongAdder timedOut = new LongAdder();

    HttpConnections(UnprovenConnections.Limits limits, Duration idleTimeout) {
        this.unproven = new UnprovenConnections(requireNonNull(limits, "limits is null"));
        this.idleTimeout = requireNonNull(idleTimeout, "idleTimeout is null");
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sluice-http-connections");
            t.setDaemon(true);
            return t;
        });
        long period = Math.max(50, Math.min(limits.deadline().toMillis(), idleTimeout.toMillis()) / 4);
        timer.scheduleWithFixedDelay(this::closeExpired, period, period, TimeUnit.MILLISECONDS);
    }

    /** Admits a connection from {@code address}; {@code close} closes it (from any thread, more than once). */
    Connection open(String address, Runnable close) {
        Connection connection = new Connection(close);
        connection.ticket = unproven.admit(address, connection::close);
        open.add(connection);
        return connection;
    }

    /** Connections open now that have not proven the secret. */
    int unauthenticated() {
        return unproven.size();
    }

    /** Connections closed without proving the secret: evicted for newer ones, or past the deadline. */
    long unauthenticatedClosed() {
        return unproven.evicted() + timedOut.sum();
    }

    private void closeExpired() {
        long now = System.nanoTime();
        for (Connection c : open) {
            if (!c.proven.get() && now - c.opened > unproven.limits().deadline().toNanos()) {
                timedOut.increment();
                c.close();
            } else if (c.proven.get() && c.inFlight.get() == 0 && now - c.lastActive > idleTimeout.toNanos()) {
                c.close();
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    /** One connection's state: proven or not, requests running, last activity. */
    final class Connection {
        private final Runnable closer;
        private final long opened = System.nanoTime();
        private final AtomicBoolean proven = new AtomicBoolean();
        private final AtomicBoolean closed = new AtomicBoolean();
        private final AtomicInteger inFlight = new AtomicInteger();
        private volatile long lastActive = opened;
        private volatile UnprovenConnections.Ticket ticket;

        private Connection(Runnable closer) {
            this.closer = closer;
        }

        /** A request carried the secret: the connection leaves the unproven limits (or closes, if evicted meanwhile). */
        void prove() {
            UnprovenConnections.Ticket t = ticket;
            if (proven.compareAndSet(false, true) && t != null && !t.proven()) {
                close();
            }
        }

        void requestStarted() {
            inFlight.incrementAndGet();
            lastActive = System.nanoTime();
        }

        void answerEnded() {
            lastActive = System.nanoTime();
            inFlight.decrementAndGet();
        }

        void close() {
            if (closed.compareAndSet(false, true)) {
                closer.run();
            }
            closed();
        }

        /** The connection ended, by either side. */
        void closed() {
            UnprovenConnections.Ticket t = ticket;
            if (t != null) {
                t.closed();
            }
            open.remove(this);
        }
    }
}
