package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.coordinator.monitor.MonitorRoutes;
import io.sluice.coordinator.web.HttpAuth;
import io.sluice.coordinator.web.WebUi;
import org.apache.pekko.http.javadsl.server.Directives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * The monitoring routes a server mounts: the REST API and {@code /metrics} (the coordinator only)
 * behind its authentication ({@link HttpAuth}: a 401 without the secret or a login session), and
 * the web UI ({@link WebUi}), whose pages send a browser without either to its login form. The
 * coordinator and {@code sluice history} both mount what this returns, so the UI works the same on
 * both. The pages are read once; each connection gets routes checking its own port's login cookie.
 */
final class MonitorHttp {
    private final HttpAuth auth;
    private final WebUi ui;
    private final Route guarded;

    /** {@code metrics} may be null (history serves none). */
    MonitorHttp(HttpAuth auth, MonitorRoutes api, Route metrics) {
        this.auth = requireNonNull(auth, "auth is null");
        this.ui = new WebUi(auth);
        this.guarded = metrics == null ? api.routes() : Directives.concat(api.routes(), metrics);
    }

    /** The routes of a connection accepted on {@code port}. */
    Route routes(int port) {
        return routes(auth.onPort(port));
    }

    /** The routes of a connection checked by {@code connection} ({@link HttpAuth#onPort} of this server's check). */
    Route routes(HttpAuth connection) {
        return Directives.concat(ui.with(connection).routes(), connection.authenticated(() -> guarded));
    }
}
