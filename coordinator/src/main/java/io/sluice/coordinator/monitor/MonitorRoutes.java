package io.sluice.coordinator.monitor;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCode;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.PathMatchers;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * The monitoring REST API ({@code /api/v1/...}, docs/monitoring.md) over a {@link QueryStore}:
 * the same routes serve a live coordinator (the store fed by its event bus) and {@code sluice
 * history} (the store fed from event logs). Authentication is the mounting server's job: these
 * routes are mounted behind it. An unknown query or stage is a 404 with a JSON {@code error}.
 */
public final class MonitorRoutes extends AllDirectives {
    private final QueryStore store;
    private final Supplier<List<MonitorViews.WorkerView>> workers;
    private final Predicate<String> cancel;
    private final String kind;
    /**
     * Where the workers are asked for (a blocking ask of the coordinator's actor, up to seconds): never
     * on the HTTP server's dispatcher, which that actor needs to answer; bounded, a full one is a 503.
     */
    private final Executor workerQueries = workerQueryPool();

    /**
     * The routes of a live coordinator.
     *
     * @param workers the workers now
     * @param cancel cancels a running query by id; false when none such runs
     */
    public MonitorRoutes(QueryStore store, Supplier<List<MonitorViews.WorkerView>> workers, Predicate<String> cancel) {
        this(store, workers, cancel, "coordinator");
    }

    private MonitorRoutes(QueryStore store, Supplier<List<MonitorViews.WorkerView>> workers, Predicate<String> cancel,
            String kind) {
        this.store = requireNonNull(store, "store is null");
        this.workers = requireNonNull(workers, "workers is null");
        this.cancel = requireNonNull(cancel, "cancel is null");
        this.kind = requireNonNull(kind, "kind is null");
    }

    /**
     * The routes of {@code sluice history}: no cluster runs behind them, so the workers are none and
     * cancel finds nothing; {@code /api/v1/server} says {@code history} so that the UI shows no cluster.
     */
    public static MonitorRoutes forHistory(QueryStore store) {
        return new MonitorRoutes(store, List::of, id -> false, "history");
    }

    public Route routes() {
        return pathPrefix("api", () -> pathPrefix("v1", () -> concat(
                path("queries", () -> get(() -> complete(json(StatusCodes.OK, store.list())))),
                path("workers", () -> get(() -> completeWithFuture(workersNow()))),
                path("server", () -> get(() -> complete(json(StatusCodes.OK, Map.of("kind", kind))))),
                pathPrefix("queries", () -> pathPrefix(PathMatchers.segment(), this::query)))));
    }

    /** {@code /api/v1/queries/{id}...}: the query, its cancel, its stages' tasks. */
    private Route query(String id) {
        return concat(
                pathEnd(() -> get(() -> complete(store.query(id).map(q -> json(StatusCodes.OK, q))
                        .orElseGet(() -> notFound("no query " + id))))),
                path("cancel", () -> post(() -> complete(cancel.test(id)
                        ? json(StatusCodes.OK, Map.of("cancelled", true))
                        : notFound("no running query " + id)))),
                path(PathMatchers.segment("stages").slash(PathMatchers.integerSegment()).slash("tasks"),
                        stage -> get(() -> complete(store.tasks(id, stage).map(t -> json(StatusCodes.OK, t))
                                .orElseGet(() -> notFound("no stage " + stage + " in query " + id))))));
    }

    private CompletableFuture<HttpResponse> workersNow() {
        try {
            return CompletableFuture.supplyAsync(() -> json(StatusCodes.OK, workers.get()), workerQueries);
        } catch (RejectedExecutionException busy) {
            return CompletableFuture.completedFuture(json(StatusCodes.SERVICE_UNAVAILABLE,
                    Map.of("error", "busy: too many worker listings at once; try again")));
        }
    }

    private static Executor workerQueryPool() {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(2, 2, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(32), r -> {
            Thread t = new Thread(r, "sluice-monitor-workers");
            t.setDaemon(true);
            return t;
        });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    private static HttpResponse notFound(String message) {
        return json(StatusCodes.NOT_FOUND, Map.of("error", message));
    }

    private static HttpResponse json(StatusCode status, Object body) {
        return HttpResponse.create().withStatus(status).withEntity(ContentTypes.APPLICATION_JSON, MonitorJson.write(body));
    }
}
