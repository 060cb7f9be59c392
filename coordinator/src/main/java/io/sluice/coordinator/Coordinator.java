package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.sluice.cluster.NodeConfig;
import io.sluice.cluster.SluiceNode;
import io.sluice.cluster.protocol.CoordinatorCommand;
import io.sluice.cluster.protocol.TaskMetrics;
import io.sluice.common.SluiceException;
import io.sluice.common.settings.Settings;
import io.sluice.coordinator.catalog.CatalogSetup;
import io.sluice.coordinator.monitor.EventBus;
import io.sluice.coordinator.monitor.MonitorRoutes;
import io.sluice.coordinator.monitor.MonitorViews;
import io.sluice.coordinator.monitor.QueryStore;
import io.sluice.coordinator.scheduler.BlockFetcher;
import io.sluice.coordinator.scheduler.DagScheduler;
import io.sluice.coordinator.scheduler.MapOutputTracker;
import io.sluice.coordinator.scheduler.TaskLauncher;
import io.sluice.coordinator.web.HttpAuth;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.shuffle.ShuffleClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.http.javadsl.IncomingConnection;

/**
 * A coordinator node: the cluster's seed, the task dispatcher actor, the query service and the
 * HTTP endpoint. Closing it unbinds HTTP, leaves the cluster and releases its memory.
 */
public final class Coordinator implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Coordinator.class);
    private final CoordinatorSettings settings;
    private final ActorSystem<CoordinatorCommand> system;
    private final BufferAllocator allocator;
    private static final int REMEMBERED_JOB_METRICS = 1000;
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

    private final ShuffleClient shuffleClient;
    private final Map<String, TaskMetrics> jobMetrics = new LinkedHashMap<>();
    private final ExecutorService queryExecutor;
    private final QueryService queries;
    /** The HTTP (or HTTPS) port; null when the coordinator serves no HTTP. */
    private final HttpListener http;
    private final DagScheduler scheduler;
    /** Operator metrics of the jobs EXPLAIN ANALYZE watches. */
    private final JobMetrics analyzedJobs = new JobMetrics();
    /** Shared by every HTTP connection: the limit on concurrent queries, and the client sessions' catalogs. */
    private final QueryGate gate;
    private final SessionCatalogs catalogs;
    /** Who may use the HTTP port (the secret, web UI login sessions): shared by every connection. */
    private final HttpAuth auth;
    /** The monitoring events' bus and listeners, and the routes serving them ({@link MonitorHttp}). */
    private final CoordinatorMonitoring monitoring;
    /** Null without an HTTP port. */
    private final MonitorHttp monitor;
    /** Open HTTP connections and their limits; the pool that answers {@code /v1/health}, bounded. */
    private final ConnectionGuard connections;
    private final ExecutorService healthExecutor;
    /** Runs submitted job jars ({@code POST /v1/submit}); null until one is installed. */
    private volatile ClusterJobRunner jobRunner;

    private Coordinator(CoordinatorSettings settings, Consumer<String> clusterAddressListener) {
        this.settings = settings;
        // Pekko's configuration loads while this thread makes the TLS credentials, memory and clients
        Supplier<Config> pekkoDefaults = SluiceNode.loadConfigInBackground();
        HttpsCredentials tls = settings.httpPort() >= 0 ? HttpsCredentials.configured(settings.host()) : null;
        this.allocator = new RootAllocator(settings.memoryLimitBytes());
        this.shuffleClient = new ShuffleClient("coordinator",
                ShuffleClient.Options.defaults().withSecret(settings.authSecret()));
        AtomicInteger threads = new AtomicInteger();
        this.queryExecutor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "sluice-query-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        NodeConfig node = NodeConfig.coordinator(settings.host(), settings.port()).withStableAfter(settings.stableAfter())
                .withSecret(settings.authSecret());
        MapOutputTracker tracker = new MapOutputTracker();
        this.monitoring = new CoordinatorMonitoring(System.currentTimeMillis(), this::workerViews, settings.httpPort() >= 0);
        this.system = SluiceNode.start(CoordinatorActor.create("coordinator@" + settings.host() + ":" + settings.port(),
                settings.scheduler(), tracker, this::addTaskMetrics, this::serverLost, shuffleClient::serverJoined,
                monitoring.bus()),
                node, ConfigFactory.parseString(httpLimits(settings.jobTimeout())).withFallback(pekkoDefaults.get()));
        clusterAddressListener.accept(SluiceNode.selfAddressString(system));
        BlockFetcher fetcher = new BlockFetcher(shuffleClient, allocator);
        Consumer<List<String>> removeShuffles =
                ids -> system.tell(new CoordinatorActor.BroadcastRemove(ids));
        TaskLauncher launcher = new ActorTaskLauncher(system, analyzedJobs::record);
        this.scheduler = new DagScheduler(launcher, fetcher, removeShuffles, tracker, settings.jobTimeout().toMillis(),
                settings.scheduler().stageMaxAttempts(), node.maxMessageBytes());
        scheduler.addListener(new StageEvents(monitoring.bus()));
        // downed by the cluster or stopped: no task can be sent or report back, so running queries fail now
        system.getWhenTerminated().thenRun(() -> scheduler.shutDown(CoordinatorActor.NODE_STOPPED));
        this.queries = new QueryService(scheduler, fetcher, allocator, this::shufflePartitions, removeShuffles,
                settings.queryDefaults(), analyzedJobs, settings.fileAccess(), this::awaitJobIdle, monitoring.bus(),
                CatalogSetup.catalog(settings.dataDir()), CatalogSetup.warehouse(settings.dataDir()));
        this.auth = HttpAuth.of("coordinator", settings.authSecret(),
                Settings.systemProperty(CoordinatorSettingsDeclaration.UI_SESSION_TIMEOUT));
        // the web UI's and monitoring API's routes, only where an HTTP port serves them
        this.monitor = settings.httpPort() < 0 ? null : new MonitorHttp(auth, new MonitorRoutes(monitoring.store(),
                this::workerViews, id -> queries.running().cancel(id, "cancelled by a client (POST /api/v1/queries/" + id + "/cancel)")),
                monitoring.metricsRoute());
        // HTTP requests running queries at once; more wait, then are told "busy" (503). Read here, not
        // in a static initializer, so that a bad value is an error naming it rather than a class that fails to load.
        this.gate = new QueryGate(Settings.systemProperty(CoordinatorSettingsDeclaration.MAX_CONCURRENT_QUERIES),
                Duration.ofSeconds(HttpEndpoint.QUEUE_WAIT_SECONDS));
        this.catalogs = new SessionCatalogs(queries.catalog(), queries::newSessionCatalog);
        this.connections = ConnectionGuard.configured(system, settings.authSecret());
        this.healthExecutor = HttpEndpoint.healthExecutor(Settings.systemProperty(HttpSettingsDeclaration.HEALTH_THREADS));
        HttpListener listener = null;
        if (settings.httpPort() >= 0) {
            try {
                listener = HttpListener.bind(system, settings.host(), settings.httpPort(), tls, this::serve);
            } catch (RuntimeException e) {
                stop(true);
                throw e;
            }
        }
        this.http = listener;
    }

    /**
     * Serves one HTTP connection with its own endpoint, whose queries are cancelled when the
     * client's side of the connection ends first; {@link ConnectionGuard} holds it to the limits on
     * connections that have not proven the secret.
     */
    private void serve(IncomingConnection connection) {
        ConnectionQueries scope = new ConnectionQueries(connection.remoteAddress().toString(), queries.running());
        HttpAuth connectionAuth = auth.onPort(connection.localAddress().getPort());
        connections.serve(connection, prove -> new HttpEndpoint(queries, queryExecutor, healthExecutor, this::load,
                connectionAuth, prove, gate, catalogs, scope, () -> jobRunner, monitor.routes(connectionAuth)).routes(),
                scope::clientGone);
    }

    /**
     * A request may take as long as a job may run (plus a minute to collect the result), and a
     * connection that sends nothing is closed after that too; bodies past the endpoint's limit are
     * refused while parsing.
     */
    private static String httpLimits(Duration jobTimeout) {
        long requestSeconds = jobTimeout.toSeconds() + 60;
        return "pekko.http.server.request-timeout = " + requestSeconds + "s\n"
                + "pekko.http.server.idle-timeout = " + (requestSeconds + 60) + "s\n"
                + "pekko.http.server.parsing.max-content-length = " + HttpEndpoint.MAX_BODY_BYTES + "b";
    }

    public static Coordinator start(CoordinatorSettings settings) {
        return start(settings, address -> { });
    }

    /**
     * {@link #start(CoordinatorSettings)}, telling {@code clusterAddressListener} the cluster address
     * ({@link #clusterAddress}) as soon as the actor system is bound, on this thread, before the
     * query service and the HTTP endpoint exist: workers may join from then on (an embedded cluster
     * starts its workers while the coordinator finishes starting). The listener must not block.
     */
    public static Coordinator start(CoordinatorSettings settings, Consumer<String> clusterAddressListener) {
        return new Coordinator(requireNonNull(settings, "settings is null"),
                requireNonNull(clusterAddressListener, "clusterAddressListener is null"));
    }

    /** Waits (at most 30 seconds) until no task of the job runs or waits to run. */
    private void awaitJobIdle(String jobId) {
        CompletableFuture<Void> idle = new CompletableFuture<>();
        CompletableFuture<?> stopped = system.getWhenTerminated().toCompletableFuture();
        if (stopped.isDone()) {
            return; // no task runs on a stopped node's behalf any more
        }
        system.tell(new CoordinatorActor.AwaitJobIdle(jobId, idle));
        try {
            CompletableFuture.anyOf(idle, stopped).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            LOG.warn("job {}: tasks still running after 30 s; cleaning up anyway", jobId);
        }
    }

    /**
     * The setting, or one partition per task slot of the cluster: a stage after a shuffle runs in
     * one wave. Twice the slots (the default before) made every small stage twice the tasks, each
     * with its fixed cost, and cost 14-23% of a TPC-H SF 1 session's time on two workers (docs/architecture.md).
     */
    private int shufflePartitions() {
        if (settings.shufflePartitions() > 0) {
            return settings.shufflePartitions();
        }
        int slots = workers().values().stream().mapToInt(Integer::intValue).sum();
        return Math.max(1, slots);
    }

    /**
     * A worker left the cluster: running jobs recompute the outputs its shuffle server held, and
     * reads of results from it fail now.
     */
    private void serverLost(String host, int port) {
        shuffleClient.serverLost(host, port);
        DagScheduler s = this.scheduler;
        if (s != null) {
            s.serverLost(host, port);
        }
    }

    /** Workers, slots and tasks of the dispatcher now. */
    public ClusterLoad load() {
        return ask(CoordinatorActor.GetLoad::new);
    }

    /** The workers as the monitoring API shows them. */
    public List<MonitorViews.WorkerView> workerViews() {
        return ask(CoordinatorActor.GetWorkerViews::new);
    }

    /** The queries the monitoring API shows, built from the coordinator's events. */
    public QueryStore monitoredQueries() {
        return monitoring.store();
    }

    /** The query as {@code GET /api/v1/queries/{id}} answers it ({@link QueryProgress} reads it); empty when unknown. */
    public java.util.Optional<String> monitoredQueryJson(String id) {
        return monitoring.store().query(id).map(Json::write);
    }

    /** The monitoring event bus (listeners may be added; events are delivered on its thread). */
    public EventBus events() {
        return monitoring.bus();
    }

    /** Registered workers and their task slots. */
    public Map<String, Integer> workers() {
        return ask(CoordinatorActor.GetWorkers::new);
    }

    /**
     * Asks the dispatcher actor something and waits for its answer, at most 10 s; once the actor
     * system has stopped, fails at once saying so (a stopped system drops the question unanswered).
     */
    private <T> T ask(java.util.function.Function<CompletableFuture<T>, CoordinatorCommand> question) {
        CompletableFuture<T> reply = new CompletableFuture<>();
        CompletableFuture<?> stopped = system.getWhenTerminated().toCompletableFuture();
        if (stopped.isDone()) {
            throw new SluiceException(CoordinatorActor.NODE_STOPPED);
        }
        system.tell(question.apply(reply));
        try {
            CompletableFuture.anyOf(reply, stopped).get(10, TimeUnit.SECONDS);
            if (!reply.isDone()) {
                throw new SluiceException(CoordinatorActor.NODE_STOPPED);
            }
            return reply.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the coordinator actor", e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("coordinator actor did not answer", e);
        }
    }

    /** Waits until at least {@code count} workers have registered. */
    public void awaitWorkers(int count, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (workers().size() < count) {
            if (System.nanoTime() > deadline) {
                throw new SluiceException("only " + workers().size() + " of " + count + " workers joined within " + timeout);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SluiceException("interrupted while waiting for workers");
            }
        }
    }

    /**
     * The summed metrics of every finished task (retries and recomputations included) of the most
     * recent jobs, by job id in start order; shuffle fetch wait over task time tells whether a
     * query was bound by the shuffle.
     */
    public Map<String, TaskMetrics> jobMetrics() {
        synchronized (jobMetrics) {
            return new LinkedHashMap<>(jobMetrics);
        }
    }

    private void addTaskMetrics(String jobId, TaskMetrics metrics) {
        synchronized (jobMetrics) {
            jobMetrics.merge(jobId, metrics, TaskMetrics::plus);
            if (jobMetrics.size() > REMEMBERED_JOB_METRICS) {
                jobMetrics.remove(jobMetrics.keySet().iterator().next());
            }
        }
    }

    /**
     * How many times tasks have asked this coordinator where their shuffle blocks are since it
     * started: tasks are sent the locations they read, so only a reader of a partition not
     * foreseen at dispatch asks.
     */
    public long mapOutputAsks() {
        return scheduler.tracker().asks();
    }

    /** Stage completions are reported to {@code listener}, on the job's thread. */
    public void addStageListener(DagScheduler.StageListener listener) {
        scheduler.addListener(listener);
    }

    public void removeStageListener(DagScheduler.StageListener listener) {
        scheduler.removeListener(listener);
    }

    /**
     * Accepts job jars over HTTP ({@code POST /v1/submit}, behind the cluster secret like every
     * query route), run by {@code runner}: cluster deploy mode. Without it the route answers 404.
     */
    public void acceptJobs(ClusterJobRunner runner) {
        this.jobRunner = java.util.Objects.requireNonNull(runner, "runner is null");
    }

    /** Whether this coordinator runs client code ({@link #acceptJobs} was called: {@code --allow-job-jars}). */
    public boolean acceptsJobs() {
        return jobRunner != null;
    }

    public QueryService queries() {
        return queries;
    }

    public byte[] runSql(String sql) {
        return queries.runSql(sql);
    }

    public byte[] run(LogicalPlan plan) {
        return queries.run(plan);
    }

    /** The cluster address workers join, e.g. {@code pekko://sluice@127.0.0.1:7355}. */
    public String clusterAddress() {
        return SluiceNode.selfAddressString(system);
    }

    /** The certificate and key HTTPS serves with, when it does (Spark Connect serves TLS with them too). */
    public java.util.Optional<HttpsCredentials> httpsCredentials() {
        return http == null ? java.util.Optional.empty() : http.credentials();
    }

    /**
     * The SHA-256 fingerprint of the certificate the HTTP port serves HTTPS with, for clients to pin
     * ({@code --http-tls-fingerprint}); empty when it serves plain HTTP.
     */
    public java.util.Optional<String> httpsFingerprint() {
        return http == null ? java.util.Optional.empty() : http.httpsFingerprint();
    }

    public int httpPort() {
        if (http == null) {
            throw new IllegalStateException("this coordinator serves no HTTP");
        }
        return http.port();
    }

    /** HTTP connections open now that have not proven the secret (at most the configured limits). */
    public int unauthenticatedHttpConnections() {
        return connections.unauthenticated();
    }

    public BufferAllocator allocator() {
        return allocator;
    }

    @Override
    public void close() {
        stop(true);
    }

    /**
     * Stops without leaving the cluster ({@link SluiceNode#halt}): for an embedded cluster whose
     * workers stop at the same time, where a leave would only wait on gossip rounds.
     */
    public void halt() {
        stop(false);
    }

    private void stop(boolean leave) {
        if (http != null) {
            http.unbind();
        }
        if (leave) {
            SluiceNode.terminate(system, STOP_TIMEOUT);
        } else {
            SluiceNode.halt(system, STOP_TIMEOUT);
        }
        monitoring.close();
        connections.close();
        healthExecutor.shutdownNow();
        queryExecutor.shutdownNow();
        shuffleClient.close();
        allocator.close();
    }
}
