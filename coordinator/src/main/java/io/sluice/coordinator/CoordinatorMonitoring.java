package io.sluice.coordinator;

import io.sluice.common.settings.Settings;
import io.sluice.coordinator.monitor.ClusterMetrics;
import io.sluice.coordinator.monitor.EventBus;
import io.sluice.coordinator.monitor.EventLogWriter;
import io.sluice.coordinator.monitor.MonitorSettings;
import io.sluice.coordinator.monitor.MonitorViews;
import io.sluice.coordinator.monitor.QueryStore;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.model.ContentType;
import org.apache.pekko.http.javadsl.model.HttpCharsets;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.MediaTypes;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.server.Directives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * A coordinator's monitoring: the event bus its scheduler, dispatcher and query threads post to,
 * and its listeners: the query store behind the REST API and, with {@code sluice.event-log.dir},
 * the event log, and the Prometheus metrics ({@link ClusterMetrics}), only for a coordinator with an
 * HTTP port, the one place they are read. Settings are read from the node's system properties ({@code --conf}).
 */
final class CoordinatorMonitoring implements AutoCloseable {
    private final EventBus bus;
    private final QueryStore store;
    /** Null without an HTTP port: nothing could scrape them. */
    private final ClusterMetrics metrics;

    /**
     * {@code workers} answers the workers now (asked at each {@code /metrics} scrape); {@code served}:
     * whether the coordinator has an HTTP port, without which no Prometheus metrics are kept (their
     * registry and JVM binders cost an embedded cluster's start about a tenth of a second of CPU).
     */
    CoordinatorMonitoring(long startMillis, Supplier<List<MonitorViews.WorkerView>> workers, boolean served) {
        this.bus = new EventBus(Settings.systemProperty(MonitorSettings.EVENT_QUEUE));
        this.store = new QueryStore(Settings.systemProperty(MonitorSettings.RETAINED_QUERIES));
        this.metrics = served ? new ClusterMetrics(workers, bus::dropped) : null;
        bus.addListener(store);
        if (metrics != null) {
            bus.addListener(metrics);
        }
        String directory = Settings.systemProperty(MonitorSettings.EVENT_LOG_DIR);
        if (!directory.isBlank()) {
            bus.addListener(EventLogWriter.open(Path.of(directory), startMillis));
        }
    }

    EventBus bus() {
        return bus;
    }

    QueryStore store() {
        return store;
    }

    /** {@code GET /metrics}: the Prometheus text exposition, scraped off the HTTP threads. */
    Route metricsRoute() {
        if (metrics == null) {
            throw new IllegalStateException("no metrics are kept for a coordinator without an HTTP port");
        }
        return Directives.path("metrics", () -> Directives.get(() -> Directives.completeWithFuture(
                CompletableFuture.supplyAsync(() -> HttpResponse.create().withStatus(StatusCodes.OK)
                        .withEntity(PrometheusText.TYPE, metrics.scrape())))));
    }

    /** A class of its own: Pekko HTTP's media type registry initialises only where metrics are served. */
    private static final class PrometheusText {
        static final ContentType.WithFixedCharset TYPE = MediaTypes.customWithFixedCharset("text", "plain",
                HttpCharsets.UTF_8, java.util.Map.of("version", "0.0.4"), false).toContentType();
    }

    /** Delivers the events posted so far and closes the listeners (the event log's open files). */
    @Override
    public void close() {
        bus.close();
    }
}
