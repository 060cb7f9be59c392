package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.sql.InMemoryCatalog;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The catalogs of HTTP client sessions, by the session id a client sends ({@value #SESSION_HEADER}).
 * Each session's tables and views are its own (over the shared catalog), so one client cannot
 * replace another's table; {@value #CATALOG_HEADER}{@code : shared} works on the shared catalog
 * instead (its databases, tables and views, kept in the data directory), with the session's own
 * current database and temporary views; a request with neither header gets a catalog of its own
 * that ends with it. The least recently used sessions are forgotten beyond {@link #MAX_SESSIONS}.
 */
final class SessionCatalogs {
    static final String SESSION_HEADER = "X-Sluice-Session";
    static final String CATALOG_HEADER = "X-Sluice-Catalog";
    static final int MAX_SESSIONS = 1024;
    private static final Pattern SESSION_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private final InMemoryCatalog shared;
    private final Supplier<InMemoryCatalog> newSession;
    private final Map<String, InMemoryCatalog> sessions = lruMap();
    private final Map<String, InMemoryCatalog> sharedSessions = lruMap();

    SessionCatalogs(InMemoryCatalog shared, Supplier<InMemoryCatalog> newSession) {
        this.shared = requireNonNull(shared, "shared is null");
        this.newSession = requireNonNull(newSession, "newSession is null");
    }

    /** The catalog a request with these header values (either may be null) works on. */
    InMemoryCatalog resolve(String sessionId, String catalog) {
        if (catalog != null) {
            if (!catalog.equalsIgnoreCase("shared")) {
                throw new SluiceException(CATALOG_HEADER + " must be 'shared', not '" + catalog + "'");
            }
            if (sessionId == null) {
                return shared;
            }
            checkSessionId(sessionId);
            synchronized (sharedSessions) {
                return sharedSessions.computeIfAbsent(sessionId, id -> InMemoryCatalog.sessionOf(shared));
            }
        }
        if (sessionId == null) {
            return newSession.get();
        }
        checkSessionId(sessionId);
        synchronized (sessions) {
            return sessions.computeIfAbsent(sessionId, id -> newSession.get());
        }
    }

    private static void checkSessionId(String sessionId) {
        if (!SESSION_ID.matcher(sessionId).matches()) {
            throw new SluiceException(SESSION_HEADER + " must be 1 to 64 letters, digits, '-' or '_'");
        }
    }

    private static Map<String, InMemoryCatalog> lruMap() {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, InMemoryCatalog> eldest) {
                return size() > MAX_SESSIONS;
            }
        };
    }
}
