package io.sluice.coordinator.scheduler;

import static java.util.Objects.requireNonNull;

import io.sluice.cluster.serialization.Kryos;
import io.sluice.common.SluiceException;
import io.sluice.coordinator.scheduler.ScheduledJob.Cancelled;
import io.sluice.coordinator.scheduler.ScheduledJob.Event;
import io.sluice.coordinator.scheduler.ScheduledJob.ServerLost;
import io.sluice.coordinator.scheduler.ScheduledJob.StageCounter;
import io.sluice.coordinator.scheduler.ScheduledJob.StageEvent;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.ExecutionPlans;
import io.sluice.operators.FetchFailure;
import io.sluice.operators.MapStatus;
import io.sluice.shuffle.ShuffleReaderExec;
import io.sluice.shuffle.ShuffleWriterExec;
import io.sluice.shuffle.stage.Stage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a job's stages in dependency order: a stage starts once its parents' map outputs are known,
 * whose locations then go to its tasks with their launch (or when asked); its tasks (one per partition) run in parallel on
 * the workers. Returns the result stage's map outputs, in partition order. Range split points are
 * resolved by the {@link SplitPointResolver} and runtime filters bound by the job's
 * {@link RuntimeFilterBinder} before a stage is submitted; a job's state is its {@link ScheduledJob}.
 *
 * <p>Somewhat over 500 lines because submission, completion, failure and lineage recovery all
 * change that one state on the job's one thread; recovery (recomputing lost outputs) is the part
 * that could move out next.
 */
public final class DagScheduler {
    private static final Logger LOG = LoggerFactory.getLogger(DagScheduler.class);

    /** Told when a stage's tasks have all finished (for metrics, and for failure tests). */
    public interface StageListener {
        void stageCompleted(String jobId, int stageId);

        /**
         * Told before a stage's tasks for {@code partitions} are handed out, with the exact plan
         * they run (split points bound; its readers' block locations come from the
         * {@link MapOutputTracker}): a first run, a recomputation of lost outputs,
         * or a sampling run (stage ids from {@link #SAMPLE_STAGE_OFFSET}).
         */
        default void stageSubmitted(String jobId, int stageId, ShuffleWriterExec plan, List<Integer> partitions) {
        }
    }

    /**
     * Told of each result-stage task that finished, as it finishes (on the thread completing it),
     * so that its output can be read before the rest of the stage is done. A partition may be
     * told more than once when the stage runs again; its first report names the committed output.
     */
    public interface ResultTaskListener {
        ResultTaskListener NONE = (partition, status) -> { };

        void finished(int partition, MapStatus status);
    }

    /** Sampling runs of stage n are numbered n + this, so their task ids differ from the real stage's. */
    public static final int SAMPLE_STAGE_OFFSET = 10_000;

    /** Bytes a task message needs beside its plan (ids, actor references), kept free under the message limit. */
    static final int TASK_MESSAGE_OVERHEAD = 16 * 1024;

    /**
     * Bytes of block locations a task message carries at most (within the message limit left by its
     * plan); a task reading more map outputs than that asks for the rest, as every task once did.
     */
    static final int MAX_LOCATION_BYTES = 1024 * 1024;

    private final TaskLauncher launcher;
    private final MapOutputTracker tracker;
    private final SplitPointResolver splitPoints;
    private final long jobTimeoutMillis;
    private final int stageMaxAttempts;
    private final int maxMessageBytes;
    private final List<StageListener> listeners = new CopyOnWriteArrayList<>();
    /** The jobs running now, by id, so that another thread can cancel one. */
    private final Map<String, ScheduledJob> active = new ConcurrentHashMap<>();
    /** Why no job can run any more ({@link #shutDown}); null while the scheduler runs. */
    private volatile String stoppedBecause;

    public DagScheduler(TaskLauncher launcher, BlockFetcher fetcher, Consumer<List<String>> removeShuffles,
            long jobTimeoutMillis) {
        this(launcher, fetcher, removeShuffles, new MapOutputTracker(), jobTimeoutMillis, 4, Integer.MAX_VALUE);
    }

    /**
     * @param tracker where finished stages' map outputs are registered for the tasks that read them
     * @param stageMaxAttempts submissions of one stage, the first included, before the job fails
     * @param maxMessageBytes the largest message between nodes: a stage plan that cannot fit in a task message
     *     fails the job at once instead of being dropped on the wire
     */
    public DagScheduler(TaskLauncher launcher, BlockFetcher fetcher, Consumer<List<String>> removeShuffles,
            MapOutputTracker tracker, long jobTimeoutMillis, int stageMaxAttempts, int maxMessageBytes) {
        this.launcher = requireNonNull(launcher, "launcher is null");
        this.tracker = requireNonNull(tracker, "tracker is null");
        this.splitPoints = new SplitPointResolver(fetcher, removeShuffles);
        if (stageMaxAttempts < 1) {
            throw new IllegalArgumentException("stageMaxAttempts must be at least 1: " + stageMaxAttempts);
        }
        this.jobTimeoutMillis = jobTimeoutMillis;
        this.stageMaxAttempts = stageMaxAttempts;
        this.maxMessageBytes = maxMessageBytes;
    }

    public MapOutputTracker tracker() {
        return tracker;
    }

    public void addListener(StageListener listener) {
        listeners.add(requireNonNull(listener, "listener is null"));
    }

    public void removeListener(StageListener listener) {
        listeners.remove(listener);
    }

    /**
     * Runs the stages; returns the last (result) stage's map outputs. Every stage whose parents are
     * done is submitted at once, so independent stages (the two map sides of a join) run at the same
     * time and share the cluster's slots. A stage whose writer range-partitions over split points not
     * yet resolved waits until every stage sharing those split points can run; then each of them runs
     * once as a sampling stage, one boundary set is computed from all the samples, and it is bound
     * into all of them, so their partitions line up.
     *
     * <p>All of the job's scheduling state is owned by the calling thread: tasks' completions arrive
     * as events on a queue, so no lock is shared with the threads that complete them. Each
     * submission of a stage is an attempt with its own number (epoch); an event from an attempt
     * that is no longer the stage's current one is ignored.
     */
    public List<MapStatus> run(String jobId, List<Stage> stages) {
        return run(jobId, stages, new ResolvedSplitPoints(), () -> null);
    }

    /**
     * The same, binding split points already in {@code splits} (resolved by an earlier attempt of
     * the same query) instead of sampling, and recording the ones it resolves there.
     */
    public List<MapStatus> run(String jobId, List<Stage> stages, ResolvedSplitPoints splits) {
        return run(jobId, stages, splits, () -> null);
    }

    /**
     * The same; {@code cancelledBefore} tells a reason the job was cancelled before it was
     * registered here (null if not), so that a cancellation racing with the start is not lost.
     */
    public List<MapStatus> run(String jobId, List<Stage> stages, ResolvedSplitPoints splits,
            Supplier<String> cancelledBefore) {
        return run(jobId, stages, splits, cancelledBefore, ResultTaskListener.NONE);
    }

    /** The same, telling {@code resultTasks} of each result-stage task as it finishes (for streaming results). */
    public List<MapStatus> run(String jobId, List<Stage> stages, ResolvedSplitPoints splits,
            Supplier<String> cancelledBefore, ResultTaskListener resultTasks) {
        requireNonNull(splits, "splits is null");
        requireNonNull(resultTasks, "resultTasks is null");
        if (stages.isEmpty()) {
            throw new IllegalArgumentException("job " + jobId + " has no stages");
        }
        ScheduledJob job = new ScheduledJob(jobId, stages, resultTasks, System.currentTimeMillis() + jobTimeoutMillis, tracker,
                stageMaxAttempts);
        if (active.putIfAbsent(jobId, job) != null) {
            throw new IllegalStateException("job " + jobId + " is already running");
        }
        String stopped = stoppedBecause;
        String early = stopped != null ? stopped : cancelledBefore.get();
        if (early != null) {
            active.remove(jobId);
            throw new SluiceException("job " + jobId + " was cancelled: " + early);
        }
        List<Stage> pending = new ArrayList<>(stages);
        Set<Integer> done = new HashSet<>();
        Map<Integer, RunningStage> running = new HashMap<>();
        BlockingQueue<Event> events = job.events;
        Map<Integer, String> resubmitCause = new HashMap<>();
        try {
            while (!pending.isEmpty()) {
                List<Stage> ready;
                try {
                    ready = runnable(job, pending, running.keySet(), done, splits);
                } catch (FetchFailedException samplingFailed) {
                    // resolving split points samples the parents' outputs: a lost one is recomputed, then sampled again
                    recover(job, samplingFailed);
                    continue;
                }
                for (Stage stage : ready) {
                    int attempt = job.nextAttempt(stage, resubmitCause.getOrDefault(stage.id(), "none"));
                    CompletableFuture<List<MapStatus>> tasks = launchTasks(job, stage, attempt, job.plans.get(stage.id()),
                            allPartitions(stage));
                    running.put(stage.id(), new RunningStage(attempt, tasks));
                    tasks.whenComplete((statuses, error) -> events.add(new StageEvent(stage, attempt, statuses, error)));
                }
                if (running.isEmpty()) {
                    throw new IllegalStateException("job " + jobId + ": no stage can run; pending " + pending);
                }
                Event next = nextEvent(events, job.deadline, jobId);
                if (next instanceof Cancelled) {
                    throw job.cancellation();
                }
                if (next instanceof ServerLost lost) {
                    recomputeOutputsOn(job, lost, pending, done);
                    continue;
                }
                StageEvent event = (StageEvent) next;
                RunningStage current = running.get(event.stage().id());
                if (current == null || current.attempt() != event.attempt()) {
                    LOG.debug("job {}: ignoring a late event of stage {} attempt {}", jobId, event.stage().id(),
                            event.attempt());
                    continue;
                }
                running.remove(event.stage().id());
                if (event.error() != null) {
                    Throwable cause = unwrap(event.error());
                    if (cause instanceof FetchFailedException fetchFailed) {
                        // the stage is submitted again on the next turn, once its lost inputs are rewritten
                        resubmitCause.put(event.stage().id(), fetchFailed.getMessage());
                        recover(job, fetchFailed);
                        continue;
                    }
                    throw failure(cause, jobId, event.stage());
                }
                job.filters.record(event.stage(), event.statuses());
                job.publish(event.stage().shuffleId(), event.statuses());
                pending.remove(event.stage());
                done.add(event.stage().id());
                for (StageListener listener : listeners) {
                    listener.stageCompleted(jobId, event.stage().id());
                }
            }
        } finally {
            // a failed job leaves no task running: queued ones never start
            running.values().forEach(r -> r.tasks().cancel(false));
            tracker.removeJob(jobId);
            active.remove(jobId);
        }
        return job.outputs.get(stages.get(stages.size() - 1).shuffleId());
    }

    /** How far one submitted stage is: tasks finished of its current submission. */
    public record StageProgress(int stage, int done, int total) {
    }

    /** The stages of a running job not finished yet, by stage id; empty when no such job runs. */
    public List<StageProgress> progress(String jobId) {
        ScheduledJob job = active.get(jobId);
        if (job == null) {
            return List.of();
        }
        List<StageProgress> out = new ArrayList<>();
        new TreeMap<>(job.progress).forEach((stage, counter) -> {
            int done = counter.done().get();
            if (done < counter.total()) {
                out.add(new StageProgress(stage, done, counter.total()));
            }
        });
        return out;
    }

    /**
     * Cancels a running job: its thread stops waiting, its tasks are cancelled (running ones are
     * told to stop) and {@link #run} fails with a {@link SluiceException} naming {@code reason}.
     * False when no such job is running.
     */
    public boolean cancel(String jobId, String reason) {
        ScheduledJob job = active.get(jobId);
        if (job == null) {
            return false;
        }
        LOG.info("job {}: cancelling ({})", jobId, reason);
        job.cancel(reason);
        return true;
    }

    /**
     * No job can run any more (the coordinator's actor system stopped, so no task can be sent or
     * report back): every running job fails now with {@code reason}, and so does every later
     * {@link #run}, instead of each waiting out the job timeout.
     */
    public void shutDown(String reason) {
        requireNonNull(reason, "reason is null");
        stoppedBecause = reason;
        // after the flag: a job registered from here on sees it in run, one registered before is here
        for (String jobId : List.copyOf(active.keySet())) {
            cancel(jobId, reason);
        }
    }

    /** The current attempt of a submitted stage and its tasks' combined future. */
    private record RunningStage(int attempt, CompletableFuture<List<MapStatus>> tasks) {
    }

    /**
     * A worker left the cluster: every running job forgets the map outputs its shuffle server held
     * and recomputes at once those a stage still to run will read, instead of waiting for readers
     * to fail fetching them.
     */
    public void serverLost(String host, int port) {
        for (ScheduledJob job : active.values()) {
            job.events.add(new ServerLost(host, port));
        }
    }

    /** Recomputes the outputs on a lost server of each finished stage that a pending stage reads. */
    private void recomputeOutputsOn(ScheduledJob job, ServerLost lost, List<Stage> pending, Set<Integer> done) {
        for (Stage stage : job.byShuffle.values()) {
            List<MapStatus> statuses = job.outputs.get(stage.shuffleId());
            if (statuses == null || !done.contains(stage.id())
                    || pending.stream().noneMatch(p -> p.parents().contains(stage.id()))) {
                continue;
            }
            for (int m = 0; m < statuses.size(); m++) {
                MapStatus status = statuses.get(m);
                if (status.host().equals(lost.host()) && status.port() == lost.port()) {
                    FetchFailure failure = new FetchFailure(stage.shuffleId(), m, lost.host(), lost.port(), true);
                    recover(job, new FetchFailedException(failure, "the worker serving " + lost.host() + ":"
                            + lost.port() + " left the cluster"));
                    break;
                }
            }
        }
    }

    /**
     * The pending stages that can be submitted now: not running, parents done, and range split
     * points resolved (resolving them here when the whole group sharing them is ready).
     */
    private List<Stage> runnable(ScheduledJob job, List<Stage> pending, Set<Integer> running, Set<Integer> done,
            ResolvedSplitPoints splits) {
        List<Stage> ready = new ArrayList<>();
        for (Stage candidate : pending) {
            if (running.contains(candidate.id()) || !done.containsAll(candidate.parents())) {
                continue;
            }
            job.bindFilters(candidate);
            if (!splitPoints.bindSplitPoints(job.id, candidate, pending, done, job.plans, splits,
                    sampling -> runTasks(job, sampling, sampling.plan(), allPartitions(sampling), "none"))) {
                continue;
            }
            ready.add(candidate);
        }
        return ready;
    }

    private static Event nextEvent(BlockingQueue<Event> events, long deadline, String jobId) {
        try {
            Event event = events.poll(Math.max(1, deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
            if (event == null) {
                throw new SluiceException("job " + jobId + " timed out");
            }
            return event;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SluiceException("job " + jobId + " was interrupted");
        }
    }

    private static List<Integer> allPartitions(Stage stage) {
        List<Integer> all = new ArrayList<>();
        for (int p = 0; p < stage.taskCount(); p++) {
            all.add(p);
        }
        return all;
    }

    /** Runs the stage's tasks for {@code partitions} as its next attempt and waits; their map outputs, in that order. */
    private List<MapStatus> runTasks(ScheduledJob job, Stage stage, ShuffleWriterExec plan, List<Integer> partitions, String cause) {
        int attempt = job.nextAttempt(stage, cause);
        return await(job, launchTasks(job, stage, attempt, plan, partitions), stage);
    }

    /**
     * Submits the stage's tasks for {@code partitions}; the future completes with their map outputs
     * in that order, or fails with the first task's failure, the others then being cancelled.
     * Cancelling the future cancels them all. The plan goes out with its shuffle readers unbound, once
     * for the stage; each task gets the locations of the blocks its partition reads with it when
     * dispatched ({@link ShuffleReads}), and asks the {@link MapOutputTracker} for any others.
     */
    private CompletableFuture<List<MapStatus>> launchTasks(ScheduledJob job, Stage stage, int attempt, ShuffleWriterExec plan,
            List<Integer> partitions) {
        ExecutionPlans.transformUp(plan, node -> checkInputsKnown(node, job.outputs));
        byte[] bytes = Kryos.serialize(plan);
        if ((long) bytes.length + TASK_MESSAGE_OVERHEAD > maxMessageBytes) {
            throw new SluiceException("stage " + stage.id() + " of job " + job.id + " serializes to " + bytes.length
                    + " bytes, more than a task message may carry (the cluster's limit of a protocol message is " + maxMessageBytes
                    + " bytes); make the plan smaller, e.g. a long IN "
                    + "list or literal table into a joined table");
        }
        for (StageListener listener : listeners) {
            listener.stageSubmitted(job.id, stage.id(), plan, List.copyOf(partitions));
        }
        LOG.debug("job {} stage {} attempt {}: {} tasks", job.id, stage.id(), attempt, partitions.size());
        List<ShuffleReaderExec> readers = ShuffleReads.readersOf(plan);
        int locationBytes = (int) Math.max(0, Math.min(MAX_LOCATION_BYTES,
                (long) maxMessageBytes - bytes.length - TASK_MESSAGE_OVERHEAD));
        List<CompletableFuture<MapStatus>> futures = new ArrayList<>(partitions.size());
        StageCounter counter = new StageCounter(partitions.size(), new AtomicInteger());
        job.progress.put(stage.id(), counter);
        for (int p : partitions) {
            CompletableFuture<MapStatus> task = launcher.launch(job.id, stage.id(), p, bytes, plan.preferredHosts(p),
                    ShuffleReads.forPartition(readers, p, locationBytes));
            task.thenRun(counter.done()::incrementAndGet);
            if (stage.id() == job.resultStageId) {
                task.thenAccept(status -> job.resultTasks.finished(p, status));
            }
            futures.add(task);
        }
        CompletableFuture<List<MapStatus>> result = new CompletableFuture<>();
        for (CompletableFuture<MapStatus> f : futures) {
            f.whenComplete((status, error) -> {
                if (error != null && result.completeExceptionally(error)) {
                    futures.forEach(other -> other.cancel(false));
                }
            });
        }
        CompletableFuture.allOf(futures.toArray(new CompletableFuture<?>[0])).whenComplete((ignored, error) -> {
            if (error == null) {
                List<MapStatus> statuses = new ArrayList<>(futures.size());
                futures.forEach(f -> statuses.add(f.join()));
                result.complete(statuses);
            }
        });
        result.whenComplete((statuses, error) -> {
            if (result.isCancelled()) {
                futures.forEach(f -> f.cancel(false));
            }
        });
        return result;
    }

    /**
     * Recomputes lost map outputs from lineage: the failed one alone when its server is alive (a
     * corrupt or missing output), else every output of the failed read's stage that lived on the
     * same shuffle server, written again by re-running those map tasks (their own inputs
     * recomputed first if they are lost too). Each re-run is an attempt of that stage, bounded by
     * {@code sluice.stage.max-attempts}. A burst of failures naming one lost server recomputes once:
     * a failure about an output already moved off that server only re-reads it.
     */
    private void recover(ScheduledJob job, FetchFailedException failed) {
        FetchFailure failure = failed.failure();
        Stage parent = job.byShuffle.get(failure.shuffleId());
        List<MapStatus> statuses = parent == null ? null : job.outputs.get(parent.shuffleId());
        if (statuses == null) {
            throw new TaskFailedException("job " + job.id + ": cannot recompute " + failure + ": " + failed.getMessage());
        }
        if (failure.serverLost() && failure.map() < statuses.size() && !livesOn(statuses.get(failure.map()), failure)) {
            // another stage's failure already moved this output off the lost server: just read it again
            return;
        }
        List<Integer> lost = new ArrayList<>();
        for (int m = 0; m < statuses.size() && failure.serverLost(); m++) {
            if (livesOn(statuses.get(m), failure)) {
                lost.add(m);
            }
        }
        if (lost.isEmpty()) {
            lost.add(failure.map());
        }
        LOG.warn("job {}: recomputing {} map outputs {} of stage {} lost with {}:{}", job.id, lost.size(), lost, parent.id(),
                failure.host(), failure.port());
        while (true) {
            try {
                List<MapStatus> recomputed = runTasks(job, parent, job.plans.get(parent.id()), lost, failed.getMessage());
                List<MapStatus> updated = new ArrayList<>(statuses);
                for (int i = 0; i < lost.size(); i++) {
                    updated.set(lost.get(i), recomputed.get(i));
                }
                job.publish(parent.shuffleId(), updated);
                return;
            } catch (FetchFailedException deeper) {
                recover(job, deeper);
            }
        }
    }

    /** Whether this map output is served by the shuffle server the failure names. */
    private static boolean livesOn(MapStatus status, FetchFailure failure) {
        return status.host().equals(failure.host()) && status.port() == failure.port();
    }

    private static ExecutionPlan checkInputsKnown(ExecutionPlan node, Map<String, List<MapStatus>> outputs) {
        if (node instanceof ShuffleReaderExec reader && !outputs.containsKey(reader.shuffleId())) {
            throw new IllegalStateException("stage reads shuffle " + reader.shuffleId() + " before it ran");
        }
        return node;
    }

    /** Waits for {@code future} within the job's deadline; a cancellation of the job ends the wait too. */
    private static <T> T await(ScheduledJob job, CompletableFuture<T> future, Stage stage) {
        try {
            CompletableFuture.anyOf(future, job.cancelled)
                    .get(Math.max(1, job.deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
            if (!future.isDone()) {
                future.cancel(false);
                throw job.cancellation();
            }
            return future.get();
        } catch (ExecutionException | CompletionException e) {
            throw failure(unwrap(e), job.id, stage);
        } catch (TimeoutException e) {
            future.cancel(false);
            throw new SluiceException("job " + job.id + " timed out in stage " + stage.id());
        } catch (InterruptedException e) {
            future.cancel(false);
            Thread.currentThread().interrupt();
            throw new SluiceException("job " + job.id + " was interrupted");
        }
    }

    private static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof ExecutionException || cause instanceof CompletionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** What a failed stage throws: the user's error and typed failures as they are, anything else as a task failure. */
    private static RuntimeException failure(Throwable cause, String jobId, Stage stage) {
        if (cause instanceof SluiceException user) {
            return user;
        }
        if (cause instanceof TaskFailedException failed) {
            return failed;
        }
        if (cause instanceof FetchFailedException fetch) {
            return fetch;
        }
        return new TaskFailedException("job " + jobId + " stage " + stage.id() + " failed: " + cause);
    }
}
