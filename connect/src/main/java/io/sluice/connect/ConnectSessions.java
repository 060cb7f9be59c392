package io.sluice.connect;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.coordinator.QueryService;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The Spark Connect sessions by the clients' session ids; at most {@code maxSessions} at once. */
final class ConnectSessions implements AutoCloseable {
    private final QueryService queries;
    private final int maxSessions;
    private final Map<String, ConnectSession> sessions = new ConcurrentHashMap<>();

    ConnectSessions(QueryService queries, int maxSessions) {
        this.queries = requireNonNull(queries, "queries is null");
        this.maxSessions = maxSessions;
    }

    /** The session of this id, started on first use. */
    ConnectSession session(String id) {
        if (id == null || id.isBlank()) {
            throw new SluiceException("INVALID_HANDLE.SESSION_ID: a Spark Connect request needs a session id");
        }
        ConnectSession found = sessions.get(id);
        if (found != null) {
            return found;
        }
        if (sessions.size() >= maxSessions) {
            throw new SluiceException("too many Spark Connect sessions (" + maxSessions + "); close some with spark.stop()");
        }
        return sessions.computeIfAbsent(id, k -> new ConnectSession(k, queries));
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

    int size() {
        return sessions.size();
    }

    @Override
    public void close() {
        sessions.values().forEach(ConnectSession::close);
        sessions.clear();
    }
}
