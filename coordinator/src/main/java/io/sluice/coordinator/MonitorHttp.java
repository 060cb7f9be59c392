package io.sluice.coordinator;

import io.sluice.coordinator.monitor.MonitorRoutes;
import io.sluice.coordinator.web.HttpAuth;
import io.sluice.coordinator.web.WebUi;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.http.javadsl.server.Directives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * The monitoring routes a server mounts: the REST API and {@code /metrics} (the coordinator only)
 * behind its authentication ({@link HttpAuth}: a 401 without the secret or a login session), and
 * the web UI ({@link WebUi}), whose pages send a browser without either to its login form. The
 * coordinator and {@code sluice history} both mount what this returns, so the UI works the same on both.
 */
final class MonitorHttp {
    private MonitorHttp() {
    }

    /** {@code metrics} may be null (history serves none). */
    static Route routes(HttpAuth auth, MonitorRoutes api, Route metrics) {
        List<Route> routes = new ArrayList<>();
        routes.add(api.routes());
        if (metrics != null) {
            routes.add(metrics);
        }
        Route guarded = Directives.concat(routes.get(0), routes.subList(1, routes.size()).toArray(new Route[0]));
        return Directives.concat(new WebUi(auth).routes(), auth.authenticated(() -> guarded));
    }
}
