package io.sluice.coordinator.monitor;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.coordinator.monitor.QueryEvent.QueryEnded;
import io.sluice.coordinator.monitor.QueryEvent.QueryStarted;
import io.sluice.coordinator.monitor.QueryEvent.TaskEnded;
import io.sluice.coordinator.monitor.QueryEvent.TaskStarted;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The coordinator's Prometheus metrics (Micrometer; {@code /metrics}, docs/monitoring.md): query
 * and task counts, task durations as a histogram, shuffle bytes, fetch failures and spill from
 * the task events, the workers' memory, slots and shuffle bytes held from the dispatcher (the
 * coordinator relays what workers report with their tasks: workers expose no port of their own),
 * and the coordinator JVM's own metrics. Counters move on the event bus's thread, the workers'
 * gauges are read at each scrape.
 */
public final class ClusterMetrics implements EventListener {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Supplier<List<MonitorViews.WorkerView>> workers;
    private final AtomicInteger queriesRunning = new AtomicInteger();
    private final AtomicInteger tasksRunning = new AtomicInteger();
    private final Counter queriesStarted;
    private final Timer taskDuration;
    private final Counter shuffleWritten;
    private final Counter shuffleFetched;
    private final Counter fetchFailures;
    private final Counter spilled;
    private final DistributionSummary taskRows;
    private final MultiGauge workerMemoryUsed;
    private final MultiGauge workerMemoryLimit;
    private final MultiGauge workerSlots;
    private final MultiGauge workerBusySlots;
    private final MultiGauge workerShuffleBytes;

    /** {@code workers} is asked at each scrape; {@code droppedEvents} counts what the event bus dropped. */
    public ClusterMetrics(Supplier<List<MonitorViews.WorkerView>> workers, Supplier<Long> droppedEvents) {
        this.workers = requireNonNull(workers, "workers is null");
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        registry.gauge("sluice.queries.running", queriesRunning);
        registry.gauge("sluice.tasks.running", tasksRunning);
        registry.more().counter("sluice.monitor.events.dropped", Tags.empty(), droppedEvents, d -> d.get());
        queriesStarted = Counter.builder("sluice.queries.started").description("queries started").register(registry);
        taskDuration = Timer.builder("sluice.task.duration").description("task attempts' wall time, as workers measured it")
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofHours(1)).register(registry);
        taskRows = DistributionSummary.builder("sluice.task.rows").description("rows a finished task attempt wrote")
                .register(registry);
        shuffleWritten = Counter.builder("sluice.shuffle.written.bytes").description("bytes tasks wrote (shuffle and result blocks)")
                .register(registry);
        shuffleFetched = Counter.builder("sluice.shuffle.fetched.bytes").description("shuffle bytes tasks read, local and remote")
                .register(registry);
        fetchFailures = Counter.builder("sluice.shuffle.fetch.failures")
                .description("task attempts that failed reading a lost map output").register(registry);
        spilled = Counter.builder("sluice.spill.bytes").description("bytes tasks spilled to disk").register(registry);
        workerMemoryUsed = MultiGauge.builder("sluice.worker.memory.used").baseUnit("bytes")
                .description("memory a worker's tasks had reserved at its last report").register(registry);
        workerMemoryLimit = MultiGauge.builder("sluice.worker.memory.limit").baseUnit("bytes")
                .description("a worker's memory for tasks").register(registry);
        workerSlots = MultiGauge.builder("sluice.worker.slots").description("a worker's task slots").register(registry);
        workerBusySlots = MultiGauge.builder("sluice.worker.slots.busy").description("a worker's slots running an attempt")
                .register(registry);
        workerShuffleBytes = MultiGauge.builder("sluice.worker.shuffle.held").baseUnit("bytes")
                .description("map output bytes a worker serves to running jobs").register(registry);
    }

    @Override
    public void onEvent(QueryEvent event) {
        if (event instanceof QueryStarted) {
            queriesStarted.increment();
            queriesRunning.incrementAndGet();
        } else if (event instanceof QueryEnded ended) {
            queriesRunning.decrementAndGet();
            registry.counter("sluice.queries.ended", "state", ended.state()).increment();
        } else if (event instanceof TaskStarted) {
            tasksRunning.incrementAndGet();
        } else if (event instanceof TaskEnded ended) {
            tasksRunning.decrementAndGet();
            registry.counter("sluice.tasks.ended", "state", ended.state()).increment();
            if (ended.fetchFailed()) {
                fetchFailures.increment();
            }
            QueryEvent.TaskNumbers m = ended.metrics();
            if (m != null) {
                taskDuration.record(Duration.ofMillis(m.durationMs()));
                shuffleWritten.increment(m.bytesWritten());
                shuffleFetched.increment(m.bytesRead());
                spilled.increment(m.spillBytes());
                if ("FINISHED".equals(ended.state())) {
                    taskRows.record(m.rows());
                }
            }
        }
    }

    /** The Prometheus text exposition of every metric now, the workers' gauges read first. */
    public String scrape() {
        List<MonitorViews.WorkerView> now = workers.get();
        workerMemoryUsed.register(rows(now, w -> w.memoryUsedBytes()), true);
        workerMemoryLimit.register(rows(now, w -> w.memoryLimitBytes()), true);
        workerSlots.register(rows(now, w -> (long) w.slots()), true);
        workerBusySlots.register(rows(now, w -> (long) w.busySlots()), true);
        workerShuffleBytes.register(rows(now, w -> w.shuffleBytesHeld()), true);
        return registry.scrape();
    }

    /** The content type of {@link #scrape()}'s text. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private static List<MultiGauge.Row<?>> rows(List<MonitorViews.WorkerView> workers,
            java.util.function.Function<MonitorViews.WorkerView, Long> value) {
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        for (MonitorViews.WorkerView w : workers) {
            Long v = value.apply(w);
            if (v != null && !"LOST".equals(w.state())) {
                rows.add(MultiGauge.Row.of(Tags.of("worker", w.id(), "address", w.address()), v));
            }
        }
        return rows;
    }
}
