package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queries one HTTP connection started and that still run. When the client's side of the
 * connection closes while they run, nobody will read their answers: they are cancelled, freeing
 * their slots and shuffle files at once instead of computing for nothing.
 */
final class ConnectionQueries implements QueryScope {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionQueries.class);

    private final String peer;
    private final RunningQueries running;
    private final Set<String> ids = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    /** Result bodies of this connection not closed yet: a gone client's are closed even if never sent. */
    private final Set<AutoCloseable> bodies = ConcurrentHashMap.newKeySet();
    /** Run once when the client goes (a submitted job's cancellation). */
    private final Set<Runnable> goneListeners = ConcurrentHashMap.newKeySet();

    ConnectionQueries(String peer, RunningQueries running) {
        this.peer = requireNonNull(peer, "peer is null");
        this.running = requireNonNull(running, "running is null");
    }

    @Override
    public void started(String queryId) {
        ids.add(queryId);
        if (closed) {
            clientGone();
        }
    }

    @Override
    public void ended(String queryId) {
        ids.remove(queryId);
    }

    /** A result body being sent on this connection; {@link #bodyClosed} when it is closed. */
    void bodyOpened(AutoCloseable body) {
        bodies.add(body);
        if (closed) {
            clientGone();
        }
    }

    /** Runs {@code listener} when the client goes (at once if it went already). */
    void onClientGone(Runnable listener) {
        goneListeners.add(listener);
        if (closed) {
            clientGone();
        }
    }

    void bodyClosed(AutoCloseable body) {
        bodies.remove(body);
    }

    /** The client closed its side of the connection: its running queries are cancelled. */
    void clientGone() {
        closed = true;
        for (Runnable listener : goneListeners) {
            if (goneListeners.remove(listener)) {
                listener.run();
            }
        }
        for (AutoCloseable body : bodies) {
            // closing waits for the query to stop: not on the thread that reports the connection's end
            java.util.concurrent.CompletableFuture.runAsync(() -> {
                try {
                    body.close();
                } catch (Exception e) {
                    LOG.warn("closing a result body of the gone client {}: {}", peer, e.toString());
                }
            });
        }
        for (String id : ids) {
            if (running.cancel(id, "the client " + peer + " disconnected")) {
                LOG.info("query {}: cancelled, its client {} disconnected", id, peer);
            }
        }
    }
}
