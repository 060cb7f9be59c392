package io.sluice.connect;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.coordinator.QueryService;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * The Spark Connect sessions by the clients' session ids; at most {@code maxSessions} at once. A
 * client that exits without {@code spark.stop()} never releases its session, so a session with no
 * request for {@link #IDLE_TIMEOUT} and nothing running is closed when a new one is started (as
 * Spark's server expires idle sessions), and the cap only refuses clients while sessions are in use.
 */
final class ConnectSessions implements AutoCloseable {
    static final Duration IDLE_TIMEOUT = Duration.ofMinutes(60);

    private final QueryService queries;
    private final int maxSessions;
    private final BooleanSupplier clientCodeAllowed;
    private final Map<String, ConnectSession> sessions = new ConcurrentHashMap<>();

    /** @param clientCodeAllowed whether the coordinator runs client code (user function jars) now */
    ConnectSessions(QueryService queries, int maxSessions, BooleanSupplier clientCodeAllowed) {
        this.queries = requireNonNull(queries, "queries is null");
        this.maxSessions = maxSessions;
        this.clientCodeAllowed = requireNonNull(clientCodeAllowed, "clientCodeAllowed is null");
    }

    /** The session of this id, started on first use. */
    ConnectSession session(String id) {
        if (id == null || id.isBlank()) {
            throw new SluiceException("INVALID_HANDLE.SESSION_ID: a Spark Connect request needs a session id");
        }
        ConnectSession found = sessions.get(id);
        if (found != null) {
            found.touch();
            return found;
        }
        closeIdle(IDLE_TIMEOUT.toNanos());
        if (sessions.size() >= maxSessions) {
            throw new SluiceException("too many Spark Connect sessions (" + maxSessions + "); close some with spark.stop()");
        }
        return sessions.computeIfAbsent(id, k -> new ConnectSession(k, queries, new ClientCode(clientCodeAllowed)));
    }

    /** Ends a session (its running operations are interrupted); its server-side id, or null if unknown. */
    String release(String id) {
        ConnectSession session = sessions.remove(id);
        if (session == null) {
            return null;
        }
        session.close();
        return session.serverSideId();
    }

    /** Closes the sessions idle for longer than {@code idleNanos} with nothing running; how many. */
    int closeIdle(long idleNanos) {
        long now = System.nanoTime();
        int closed = 0;
        for (Map.Entry<String, ConnectSession> e : sessions.entrySet()) {
            if (e.getValue().idleFor(idleNanos, now) && sessions.remove(e.getKey(), e.getValue())) {
                e.getValue().close();
                closed++;
            }
        }
        return closed;
    }

    int size() {
        return sessions.size();
    }

    @Override
    public void close() {
        sessions.values().forEach(ConnectSession::close);
        sessions.clear();
    }
}
