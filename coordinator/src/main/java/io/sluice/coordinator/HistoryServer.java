package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import com.typesafe.config.ConfigFactory;
import io.sluice.common.settings.Settings;
import io.sluice.coordinator.monitor.EventLogReader;
import io.sluice.coordinator.monitor.MonitorRoutes;
import io.sluice.coordinator.monitor.QueryStore;
import io.sluice.coordinator.web.HttpAuth;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ActorSystem;

/**
 * {@code sluice history}: serves the monitoring REST API (and the web UI mounted by
 * {@link MonitorHttp}) for the queries of an event log directory, with no cluster running. The
 * files are replayed into a {@link QueryStore} at start, the same store and routes a live
 * coordinator serves from; requests need the secret when one is given, as a bearer token or a web
 * UI login ({@link HttpAuth}), over HTTPS when the node settings ask for it ({@link HttpListener})
 * and with the limits on connections that have not proven the secret ({@link ConnectionGuard}), as
 * on the coordinator. A query whose log has no end (its coordinator stopped while it ran) shows as
 * RUNNING with what was logged.
 */
public final class HistoryServer implements AutoCloseable {
    private final ActorSystem system;
    private final HttpListener http;
    private final ConnectionGuard connections;
    private final EventLogReader.Replay replay;

    private HistoryServer(Path directory, String host, int port, String secret, int retainedQueries) {
        HttpsCredentials tls = HttpsCredentials.configured(host);
        QueryStore store = new QueryStore(retainedQueries);
        this.replay = EventLogReader.replay(directory, store);
        this.system = ActorSystem.create("sluice-history", ConfigFactory.parseString(
                "pekko.actor.provider = local\npekko.loglevel = WARNING\npekko.stdout-loglevel = WARNING")
                .withFallback(ConfigFactory.load()));
        MonitorRoutes api = MonitorRoutes.forHistory(store);
        HttpAuth auth = HttpAuth.of("history", secret,
                Settings.systemProperty(CoordinatorSettingsDeclaration.UI_SESSION_TIMEOUT));
        MonitorHttp monitor = new MonitorHttp(auth, api, null);
        this.connections = ConnectionGuard.configured(system, secret);
        try {
            this.http = HttpListener.bind(system, host, port, tls, connection -> {
                HttpAuth connectionAuth = auth.onPort(connection.localAddress().getPort());
                connections.serve(connection, prove -> connectionAuth.noteProven(prove,
                        () -> monitor.routes(connectionAuth)), () -> { });
            });
        } catch (RuntimeException e) {
            connections.close();
            system.terminate();
            throw e;
        }
    }

    /**
     * Replays {@code directory}'s event logs and serves them on {@code host:port} (0: a free port);
     * {@code secret} null serves without authentication. A missing directory is an error naming it.
     */
    public static HistoryServer start(Path directory, String host, int port, String secret, int retainedQueries) {
        requireNonNull(directory, "directory is null");
        requireNonNull(host, "host is null");
        return new HistoryServer(directory, host, port, secret, retainedQueries);
    }

    /** What the start-up replay read: files, events, lines skipped (each naming its file and line). */
    public EventLogReader.Replay replay() {
        return replay;
    }

    public int httpPort() {
        return http.port();
    }

    /**
     * The SHA-256 fingerprint of the certificate the port serves HTTPS with ({@code
     * --http-tls-self-signed} or {@code --http-tls-cert}), for clients to pin; empty for plain HTTP.
     */
    public Optional<String> httpsFingerprint() {
        return http.httpsFingerprint();
    }

    /** HTTP connections open now that have not proven the secret (at most the configured limits). */
    public int unauthenticatedHttpConnections() {
        return connections.unauthenticated();
    }

    @Override
    public void close() {
        http.unbind();
        connections.close();
        system.terminate();
        try {
            system.getWhenTerminated().toCompletableFuture().get(20, TimeUnit.SECONDS);
        } catch (Exception e) {
            // stopping anyway
        }
    }
}
