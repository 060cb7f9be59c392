package io.sluice.worker;

import static java.util.Objects.requireNonNull;

import io.sluice.cluster.NodeConfig;
import io.sluice.cluster.SluiceNode;
import io.sluice.cluster.protocol.WorkerCommand;
import io.sluice.common.SluiceException;
import io.sluice.common.settings.Settings;
import io.sluice.operators.join.SharedBuildCache;
import io.sluice.operators.memory.MemoryBudget;
import io.sluice.shuffle.ShuffleClient;
import io.sluice.shuffle.ShuffleEnvironment;
import io.sluice.shuffle.ShuffleServer;
import io.sluice.shuffle.ShuffleSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * A worker node: a cluster member that runs tasks on a fixed pool of slots and serves its shuffle
 * output over its own Netty shuffle server. Closing it leaves the cluster, stops the server and
 * releases its memory.
 */
public final class Worker implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Worker.class);

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

    private final WorkerSettings settings;
    private final BufferAllocator allocator;
    private final MemoryBudget memory;
    private final SharedBuildCache sharedBuilds;
    private final ShuffleServer shuffleServer;
    private final ShuffleClient shuffleClient;
    private final ThreadPoolExecutor slots;
    private final ActorSystem<WorkerCommand> system;
    private final CompletableFuture<String> registered = new CompletableFuture<>();
    private volatile boolean closed;

    private Worker(WorkerSettings settings) {
        this.settings = settings;
        try {
            Files.createDirectories(settings.localDirectory());
        } catch (IOException e) {
            throw new SluiceException("cannot create the worker directory " + settings.localDirectory() + ": " + e.getMessage());
        }
        this.allocator = new RootAllocator(arrowLimit(settings.memoryLimitBytes()));
        this.memory = new MemoryBudget(settings.workerId(), settings.memoryLimitBytes());
        this.shuffleServer = new ShuffleServer(settings.host(), settings.shufflePort(), settings.localDirectory(),
                ShuffleServer.Options.configured().withSecret(settings.authSecret())).start();
        Settings nodeSettings = Settings.fromSystemProperties();
        this.shuffleClient = new ShuffleClient(settings.workerId(),
                ShuffleClient.Options.defaults().withSecret(settings.authSecret()).withTimeoutsFrom(nodeSettings)
                        .withSpoolDirectory(settings.localDirectory().resolve("fetch-spool")));
        AtomicInteger threads = new AtomicInteger();
        this.slots = new ThreadPoolExecutor(settings.slots(), settings.slots(), 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, settings.workerId() + "-slot-" + threads.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        ShuffleEnvironment environment = new ShuffleEnvironment(settings.workerId(), settings.host(), shuffleServer.port(),
                settings.localDirectory(), shuffleClient).withSettings(ShuffleSettings.from(nodeSettings));
        this.sharedBuilds = new SharedBuildCache(memory);
        TaskRunner runner = new TaskRunner(settings.workerId(), allocator, memory, settings.taskMemoryLimitBytes(),
                settings.localDirectory(), environment, this::stopAfterFatalError, sharedBuilds);
        NodeConfig node = NodeConfig.worker(settings.host(), settings.port(), settings.coordinatorAddress())
                .withStableAfter(settings.stableAfter()).withSecret(settings.authSecret());
        this.system = SluiceNode.start(WorkerActor.create(settings, shuffleServer.port(), runner, slots, shuffleServer,
                shuffleClient, registered), node);
    }

    public static Worker start(WorkerSettings settings) {
        return new Worker(requireNonNull(settings, "settings is null"));
    }

    /** Waits until the coordinator acknowledged this worker. */
    public Worker awaitRegistered(Duration timeout) {
        try {
            registered.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return this;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SluiceException("interrupted while worker " + settings.workerId() + " waited to register");
        } catch (Exception e) {
            throw new SluiceException("worker " + settings.workerId() + " could not register with the coordinator at "
                    + settings.coordinatorAddress() + " within " + timeout);
        }
    }

    public String workerId() {
        return settings.workerId();
    }

    /** The port this worker's Artery listens on. */
    public int clusterPort() {
        return (Integer) SluiceNode.selfAddress(system).getPort().get();
    }

    public ShuffleServer shuffleServer() {
        return shuffleServer;
    }

    /**
     * The hard limit of the worker's Arrow allocator: the budget and a quarter more. The budget is
     * what operators plan against (their reservations and the tasks' Arrow buffers count in it,
     * spilling starts at three quarters); Arrow buffers are counted but never refused by it, so
     * two tasks' batches in flight can pass it for a moment. The allocator's limit is the backstop
     * against a runaway, not the budget itself: at exactly the budget it failed such moments.
     */
    static long arrowLimit(long budget) {
        return budget > Long.MAX_VALUE - budget / 4 ? Long.MAX_VALUE : budget + budget / 4;
    }

    public BufferAllocator allocator() {
        return allocator;
    }

    /** The memory this worker's tasks share; every task's pool is closed when its task ends. */
    public MemoryBudget memory() {
        return memory;
    }

    /**
     * A task hit a JVM error ({@code OutOfMemoryError}): the worker's state is unknown, so it
     * leaves the cluster (the coordinator then treats it as lost and re-runs its tasks elsewhere)
     * and stops; a {@code bin/sluice worker} process exits when it has stopped.
     */
    private void stopAfterFatalError(Throwable error) {
        LOG.error("worker {} stops after a fatal error in a task", settings.workerId(), error);
        Thread stopper = new Thread(() -> {
            try {
                close();
            } catch (RuntimeException | Error e) {
                LOG.error("worker {} could not stop cleanly", settings.workerId(), e);
            }
        }, settings.workerId() + "-fatal-stop");
        stopper.setDaemon(true);
        stopper.start();
    }

    /** Broadcast joins' tables shared by the tasks of a stage here, kept until their job ends. */
    public SharedBuildCache sharedBuilds() {
        return sharedBuilds;
    }

    /** Tasks running or queued on this worker's slots now (approximate while tasks start and end). */
    public int activeTasks() {
        return slots.getActiveCount() + slots.getQueue().size();
    }

    /** Blocks until the actor system terminates (e.g. when downed). */
    public void awaitTermination() {
        system.getWhenTerminated().toCompletableFuture().join();
    }

    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        stop(true);
    }

    /**
     * Stops without leaving the cluster ({@link SluiceNode#halt}): for an embedded cluster whose
     * coordinator stops at the same time, where a leave would only wait on gossip rounds.
     */
    public void halt() {
        stop(false);
    }

    private synchronized void stop(boolean leave) {
        if (closed) {
            return;
        }
        closed = true;
        if (leave) {
            SluiceNode.terminate(system, STOP_TIMEOUT);
        } else {
            SluiceNode.halt(system, STOP_TIMEOUT);
        }
        slots.shutdownNow();
        boolean drained;
        try {
            drained = slots.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            drained = false;
        }
        shuffleClient.close();
        shuffleServer.close();
        sharedBuilds.close();
        if (drained) {
            allocator.close();
        } else {
            // A task still runs (it does not check for interrupts): its memory goes with the JVM.
            LOG.warn("worker {} closed with tasks still running; not releasing its allocator", settings.workerId());
        }
    }
}
