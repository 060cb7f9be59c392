package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.coordinator.Coordinator;
import io.sluice.coordinator.CoordinatorSettings;
import io.sluice.coordinator.CoordinatorSettingsDeclaration;
import io.sluice.coordinator.QueryConfig;
import io.sluice.coordinator.SchedulerSettings;
import io.sluice.datasource.FileAccessPolicy;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.worker.Worker;
import io.sluice.worker.WorkerSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A coordinator and {@code n} workers in this JVM, each its own Pekko actor system on 127.0.0.1
 * with its own ports and shuffle server: real remoting and real sockets, only no extra processes.
 */
public final class LocalCluster implements QueryEngine {
    private static final Logger LOG = LoggerFactory.getLogger(LocalCluster.class);

    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(60);

    private final Coordinator coordinator;
    private final List<Worker> workers = new ArrayList<>();
    private final Path directory;
    private final String secret;

    private LocalCluster(Options options) {
        try {
            directory = Files.createTempDirectory("sluice-local-");
        } catch (IOException e) {
            throw new IllegalStateException("cannot create a temporary directory", e);
        }
        // A fresh shuffle secret per session: only this session's nodes can read its shuffle blocks.
        String configured = AuthSecrets.configured();
        secret = configured == null ? randomSecret() : configured;
        CoordinatorSettings settings = CoordinatorSettings.defaults("127.0.0.1", 0, options.httpPort())
                .withQueryDefaults(options.queryDefaults()).withStableAfter(options.stableAfter())
                .withJobTimeout(options.jobTimeout()).withAuthSecret(secret).withScheduler(options.scheduler())
                .withFileAccess(FileAccessPolicy.under(options.allowedRoots())).withDataDir(options.dataDir());
        if (options.shufflePartitions() > 0) {
            settings = settings.withShufflePartitions(options.shufflePartitions());
        }
        // The workers start while the coordinator finishes its own start (its query service, catalog
        // and monitoring: class loading on one thread): each waits only for the coordinator's actor
        // system, whose address it joins, and then makes its shuffle server and actor system (the TLS
        // keys, made once by the coordinator, are shared) side by side with the others. One after the
        // other, an embedded cluster's start grew by a worker's start per worker and by the
        // coordinator's start after its actor system.
        CompletableFuture<String> coordinatorAddress = new CompletableFuture<>();
        ExecutorService starter = Executors.newFixedThreadPool(options.workers(), daemon("sluice-local-start"));
        try {
            List<Future<Worker>> starting = new ArrayList<>();
            for (int i = 0; i < options.workers(); i++) {
                String id = "worker-" + (i + 1);
                starting.add(starter.submit(() -> {
                    Worker started = Worker.start(workerSettings(options, id, coordinatorAddress.join()));
                    StartupTrace.mark(id + " started");
                    return started;
                }));
            }
            try {
                coordinator = Coordinator.start(settings, address -> {
                    StartupTrace.mark("coordinator's actor system started");
                    coordinatorAddress.complete(address);
                });
            } catch (RuntimeException | Error e) {
                // a worker may have started against an actor system the failed coordinator then
                // stopped; the others must not wait for an address forever
                coordinatorAddress.completeExceptionally(e);
                collectWorkers(starting);
                halt(workers, null);
                deleteDirectory();
                throw e;
            }
            StartupTrace.mark("coordinator started");
            startServing(options, starting);
        } finally {
            starter.shutdown();
        }
    }

    /**
     * Waits for the workers to start and register; on a failure, stops the whole cluster, the
     * workers started in the background included.
     */
    private void startServing(Options options, List<Future<Worker>> starting) {
        boolean collected = false;
        try {
            if (ClusterJobs.allowedBySystemProperty()) {
                ClusterJobs.acceptJobsOn(coordinator);
            }
            warmUp(coordinator);
            collected = true;
            RuntimeException failure = collectWorkers(starting);
            if (failure != null) {
                throw failure;
            }
            StartupTrace.mark("workers started");
            for (Worker w : workers) {
                w.awaitRegistered(JOIN_TIMEOUT);
                StartupTrace.mark(w.workerId() + " registered");
            }
            coordinator.awaitWorkers(options.workers(), JOIN_TIMEOUT);
            StartupTrace.mark("workers registered");
        } catch (RuntimeException | Error e) {
            if (!collected) {
                collectWorkers(starting);
            }
            close();
            throw e;
        }
    }

    /**
     * Waits for every worker start, adding each started worker to {@link #workers} (so that it is
     * stopped if the cluster fails to start); returns the first failure, or null.
     */
    private RuntimeException collectWorkers(List<Future<Worker>> starting) {
        RuntimeException failure = null;
        for (Future<Worker> worker : starting) {
            try {
                workers.add(worker.get());
            } catch (ExecutionException e) {
                Throwable cause = e.getCause() instanceof CompletionException c && c.getCause() != null
                        ? c.getCause() : e.getCause();
                failure = failure != null ? failure : cause instanceof RuntimeException r ? r
                        : new IllegalStateException("a worker failed to start", cause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure = failure != null ? failure : new IllegalStateException("interrupted while workers started", e);
            }
        }
        return failure;
    }

    /**
     * Plans a small query on a thread of its own while the workers start and join, which mostly
     * wait on the network: the SQL front end, the optimizers and Hadoop's local file system are
     * loaded once, there, instead of delaying the first query. Best effort: a failure here only
     * leaves that cost to the first query.
     */
    private static void warmUp(Coordinator coordinator) {
        Thread thread = daemon("sluice-local-warm-up").newThread(() -> {
            try {
                coordinator.queries().warmUp();
                StartupTrace.mark("planner warmed up");
            } catch (RuntimeException e) {
                LOG.debug("warming up the planner failed", e);
            }
        });
        thread.start();
    }

    private WorkerSettings workerSettings(Options options, String id, String coordinatorAddress) {
        long memory = options.workerMemory() > 0 ? options.workerMemory()
                : WorkerSettings.configuredMemory().orElse(Math.max(1, WorkerSettings.defaultMemory() / options.workers()));
        return WorkerSettings.defaults(id, "127.0.0.1", coordinatorAddress, directory.resolve(id))
                .withSlots(options.slotsPerWorker()).withStableAfter(options.stableAfter()).withAuthSecret(secret)
                .withMemory(memory).withTaskMemoryLimit(options.taskMemoryLimitBytes() > 0 ? options.taskMemoryLimitBytes() : memory);
    }

    private static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    private static String randomSecret() {
        byte[] bytes = new byte[32];
        new java.security.SecureRandom().nextBytes(bytes);
        return java.util.HexFormat.of().formatHex(bytes);
    }

    /**
     * @param httpPort -1 for no HTTP endpoint, 0 for a free port
     * @param shufflePartitions 0 for the cluster's task slots
     * @param allowedRoots where tables may live ({@link FileAccessPolicy}); by default everywhere, every
     *                     scheme ({@link FileAccessPolicy#EVERYWHERE}), since an embedded cluster reads
     *                     with its own user's rights and credentials
     * @param workerMemory each worker's memory; 0 for the default ({@link #withWorkerMemory})
     * @param taskMemoryLimitBytes each task's Arrow memory limit on the workers; 0 for the worker's memory
     * @param scheduler task timeout, attempts and exclusion ({@link SchedulerSettings})
     * @param queryDefaults the session settings queries start with ({@code SET} changes them per session)
     */
    public record Options(int workers, int slotsPerWorker, int shufflePartitions, int httpPort, Duration stableAfter,
            Duration jobTimeout, List<String> allowedRoots, long workerMemory, long taskMemoryLimitBytes,
            SchedulerSettings scheduler, QueryConfig queryDefaults, Path dataDir) {
        public Options {
            if (workers < 1) {
                throw new IllegalArgumentException("a local cluster needs at least one worker: " + workers);
            }
            requireNonNull(stableAfter, "stableAfter is null");
            requireNonNull(jobTimeout, "jobTimeout is null");
            requireNonNull(scheduler, "scheduler is null");
            requireNonNull(queryDefaults, "queryDefaults is null");
            allowedRoots = List.copyOf(requireNonNull(allowedRoots, "allowedRoots is null"));
            if (workerMemory < 0) {
                throw new IllegalArgumentException("worker memory must be positive, or 0 for the default: " + workerMemory);
            }
            if (taskMemoryLimitBytes < 0) {
                throw new IllegalArgumentException("task memory limit must be positive, or 0 for the worker's memory: "
                        + taskMemoryLimitBytes);
            }
        }

        public Options(int workers, int slotsPerWorker, int shufflePartitions, int httpPort, Duration stableAfter,
                Duration jobTimeout) {
            this(workers, slotsPerWorker, shufflePartitions, httpPort, stableAfter, jobTimeout, List.of(FileAccessPolicy.EVERYWHERE), 0, 0,
                    SchedulerSettings.defaults(), QueryConfig.defaults(), null);
        }

        /**
         * Each worker's memory; 0 (the default) gives each worker {@code sluice.worker.memory} if that
         * system property is set, else the default share of the heap divided by the number of
         * workers, since they share one JVM.
         */
        public Options withWorkerMemory(long bytes) {
            return new Options(workers, slotsPerWorker, shufflePartitions, httpPort, stableAfter, jobTimeout,
                    allowedRoots, bytes, taskMemoryLimitBytes, scheduler, queryDefaults, dataDir);
        }

        public static Options of(int workers) {
            return new Options(workers, 2, 0, -1, Duration.ofSeconds(3), CoordinatorSettingsDeclaration.JOB_TIMEOUT.defaultValue(), List.of(FileAccessPolicy.EVERYWHERE), 0, 0,
                    SchedulerSettings.defaults(), QueryConfig.defaults(), null);
        }

        /** Tables only under these directories or URIs (for a cluster whose HTTP port others reach). */
        public Options withAllowedRoots(List<String> roots) {
            return new Options(workers, slotsPerWorker, shufflePartitions, httpPort, stableAfter, jobTimeout, roots,
                    workerMemory, taskMemoryLimitBytes, scheduler, queryDefaults, dataDir);
        }

        public Options withHttpPort(int port) {
            return new Options(workers, slotsPerWorker, shufflePartitions, port, stableAfter, jobTimeout, allowedRoots,
                    workerMemory, taskMemoryLimitBytes, scheduler, queryDefaults, dataDir);
        }

        public Options withShufflePartitions(int n) {
            return new Options(workers, slotsPerWorker, n, httpPort, stableAfter, jobTimeout, allowedRoots,
                    workerMemory, taskMemoryLimitBytes, scheduler, queryDefaults, dataDir);
        }

        public Options withSlotsPerWorker(int n) {
            return new Options(workers, n, shufflePartitions, httpPort, stableAfter, jobTimeout, allowedRoots,
                    workerMemory, taskMemoryLimitBytes, scheduler, queryDefaults, dataDir);
        }

        /** Each task's Arrow memory limit (default: its worker's memory). */
        public Options withTaskMemoryLimit(long bytes) {
            return new Options(workers, slotsPerWorker, shufflePartitions, httpPort, stableAfter, jobTimeout, allowedRoots,
                    workerMemory, bytes, scheduler, queryDefaults, dataDir);
        }

        /** How long a job may run before it is cancelled and fails (default 30 minutes). */
        public Options withJobTimeout(Duration timeout) {
            return new Options(workers, slotsPerWorker, shufflePartitions, httpPort, stableAfter, timeout, allowedRoots,
                    workerMemory, taskMemoryLimitBytes, scheduler, queryDefaults, dataDir);
        }

        /** The coordinator's scheduler settings (task timeout, attempts, exclusion, mode). */
        public Options withScheduler(SchedulerSettings settings) {
            return new Options(workers, slotsPerWorker, shufflePartitions, httpPort, stableAfter, jobTimeout,
                    allowedRoots, workerMemory, taskMemoryLimitBytes, settings, queryDefaults, dataDir);
        }

        /** The session settings queries start with (what {@code sluice.shuffle.partitions} and the like default to). */
        public Options withQueryDefaults(QueryConfig config) {
            return new Options(workers, slotsPerWorker, shufflePartitions, httpPort, stableAfter, jobTimeout,
                    allowedRoots, workerMemory, taskMemoryLimitBytes, scheduler, config, dataDir);
        }

        /**
         * Keeps the catalog (databases, tables, views) under {@code directory}, loaded when the
         * cluster starts, and managed tables under {@code directory/warehouse} (unless
         * {@code sluice.sql.warehouse-dir} is set); without it the catalog ends with the cluster.
         */
        public Options withDataDir(Path directory) {
            return new Options(workers, slotsPerWorker, shufflePartitions, httpPort, stableAfter, jobTimeout,
                    allowedRoots, workerMemory, taskMemoryLimitBytes, scheduler, queryDefaults, directory);
        }

        /** The coordinator's scheduler settings with {@code name = value} applied (those {@link SchedulerSettings} reads). */
        public Options withSetting(String name, String value) {
            return new Options(workers, slotsPerWorker, shufflePartitions, httpPort, stableAfter, jobTimeout,
                    allowedRoots, workerMemory, taskMemoryLimitBytes, scheduler.with(name, value), queryDefaults, dataDir);
        }
    }

    /**
     * Runs job jars submitted to this cluster's HTTP port ({@code sluice local --allow-job-jars}):
     * anyone with the secret may then run code in this JVM. Off unless called (or {@code
     * -Dsluice.coordinator.allow-job-jars=true}).
     */
    public LocalCluster allowJobJars() {
        ClusterJobs.acceptJobsOn(coordinator);
        return this;
    }

    public static LocalCluster start(Options options) {
        return new LocalCluster(options);
    }

    /**
     * The secret this cluster's nodes and HTTP clients prove: {@code SLUICE_AUTH_SECRET} if set,
     * otherwise one made at random for this cluster.
     */
    public String authSecret() {
        return secret;
    }

    public Coordinator coordinator() {
        return coordinator;
    }

    public List<Worker> workers() {
        return List.copyOf(workers);
    }

    private CoordinatorEngine engine() {
        return new CoordinatorEngine(coordinator.queries(), coordinator.queries().catalog());
    }

    @Override
    public byte[] runSql(String sql) {
        return engine().runSql(sql);
    }

    @Override
    public byte[] runSql(String sql, String tag) {
        return engine().runSql(sql, tag);
    }

    /** Runs a query plan under the default settings; the result as an Arrow IPC stream. */
    public byte[] run(LogicalPlan plan) {
        return coordinator.run(plan);
    }

    @Override
    public io.sluice.coordinator.PreparedSql prepareSql(String sql) {
        return engine().prepareSql(sql);
    }

    @Override
    public byte[] run(io.sluice.coordinator.PlanRequest request) {
        return engine().run(request);
    }

    @Override
    public RowIterator stream(io.sluice.coordinator.PlanRequest request) {
        return engine().stream(request);
    }

    @Override
    public String explain(LogicalPlan plan) {
        return engine().explain(plan);
    }

    @Override
    public void registerView(String name, LogicalPlan plan, boolean replace) {
        engine().registerView(name, plan, replace);
    }

    @Override
    public String runningQueries() {
        return engine().runningQueries();
    }

    @Override
    public java.util.Optional<String> monitoredQuery(String id) {
        return coordinator.monitoredQueryJson(id);
    }

    @Override
    public boolean cancel(String queryId) {
        return engine().cancel(queryId);
    }

    /** Stops one worker as if its machine died (for failure tests). */
    public void killWorker(int index) {
        workers.get(index).close();
    }

    /**
     * Stops the workers and the coordinator side by side, none leaving the cluster: the whole
     * cluster ends, so a leave (rounds of gossip through Leaving, Exiting and Removed, with a
     * coordinated shutdown phase waiting on each) would inform no one. Each node's actor system
     * terminates directly ({@code halt}), then its shuffle server, pools and memory are released.
     */
    @Override
    public void close() {
        StartupTrace.mark("closing the embedded cluster");
        halt(workers, coordinator);
        StartupTrace.mark("embedded cluster closed");
        deleteDirectory();
    }

    /** Halts the running workers and the coordinator (null: none) side by side and waits for each. */
    private static void halt(List<Worker> workers, Coordinator coordinator) {
        ExecutorService stopper = Executors.newFixedThreadPool(workers.size() + 1, daemon("sluice-local-stop"));
        try {
            List<Future<?>> stopping = new ArrayList<>();
            for (Worker w : workers) {
                if (!w.isClosed()) {
                    stopping.add(stopper.submit(() -> {
                        w.halt();
                        StartupTrace.mark(w.workerId() + " stopped");
                    }));
                }
            }
            if (coordinator != null) {
                stopping.add(stopper.submit(() -> {
                    coordinator.halt();
                    StartupTrace.mark("coordinator stopped");
                }));
            }
            // every node has stopped before its directory is deleted, even when this thread is interrupted
            boolean interrupted = false;
            for (Future<?> f : stopping) {
                while (true) {
                    try {
                        f.get();
                        break;
                    } catch (ExecutionException e) {
                        // keep closing the rest; a leak shows in the node's allocator check in tests
                        LOG.warn("closing a node of the embedded cluster failed", e.getCause());
                        break;
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        } finally {
            stopper.shutdown();
        }
    }

    private void deleteDirectory() {
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.warn("cannot delete the embedded cluster's directory {}", directory, e);
        }
    }
}
