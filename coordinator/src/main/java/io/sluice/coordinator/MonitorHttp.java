package io.sluice.coordinator;

import io.sluice.coordinator.monitor.MonitorRoutes;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.http.javadsl.server.Directives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * The monitoring routes a server mounts behind its authentication ({@link BearerAuth}): the REST
 * API, {@code /metrics} (the coordinator only) and the web UI. The coordinator and {@code sluice
 * history} both mount what this returns, so the web UI works the same on both.
 */
final class MonitorHttp {
    private MonitorHttp() {
    }

    /** {@code metrics} may be null (history serves none). */
    static Route routes(MonitorRoutes api, Route metrics) {
        List<Route> routes = new ArrayList<>();
        routes.add(api.routes());
        if (metrics != null) {
            routes.add(metrics);
        }
        // The web UI (issue 28's WebUi) mounts here, for the coordinator and `sluice history` alike:
        // routes.add(new WebUi(...).routes());
        return Directives.concat(routes.get(0), routes.subList(1, routes.size()).toArray(new Route[0]));
    }
}
