package io.sluice.coordinator.scheduler;

import static java.util.Objects.requireNonNull;

import io.sluice.cluster.serialization.Kryos;
import io.sluice.plan.SluiceException;
import io.sluice.plan.expr.Column;
import io.sluice.plan.expr.Expr;
import io.sluice.plan.expr.Exprs;
import io.sluice.plan.expr.SortKey;
import io.sluice.plan.physical.ExecutionPlan;
import io.sluice.plan.physical.FetchFailure;
import io.sluice.plan.physical.ExecutionPlans;
import io.sluice.plan.physical.MapStatus;
import io.sluice.shuffle.ShuffleReaderExec;
import io.sluice.shuffle.ShuffleWriterExec;
import io.sluice.plan.exec.Batch;
import io.sluice.plan.operators.SampleExec;
import io.sluice.plan.physical.Partitioning;
import io.sluice.plan.physical.RangeBoundaries;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a job's stages in dependency order: a stage starts once its parents' map outputs are known,
 * which are then bound into its shuffle readers; its tasks (one per partition) run in parallel on
 * the workers. Returns the result stage's map outputs, in partition order.
 */
public final class DagScheduler {
    private static final Logger LOG = LoggerFactory.getLogger(DagScheduler.class);

    /** Told when a stage's tasks have all finished (for metrics, and for failure tests). */
    public interface StageListener {
        void stageCompleted(String jobId, int stageId);

        /**
         * Told before a stage's tasks for {@code partitions} are handed out, with the exact plan
         * they run (readers and split points bound): a first run, a recomputation of lost outputs,
         * or a sampling run (stage ids from {@link #SAMPLE_STAGE_OFFSET}).
         */
        default void stageSubmitted(String jobId, int stageId, ShuffleWriterExec plan, List<Integer> partitions) {
        }
    }

    /** How many lost-output recoveries one job may make before it fails. */
    static final int MAX_RECOVERIES = 8;

    /** Sampled key rows per map partition when resolving range split points. */
    static final int SAMPLE_ROWS_PER_PARTITION = 1000;

    /** Sampling runs of stage n are numbered n + this, so their task ids differ from the real stage's. */
    public static final int SAMPLE_STAGE_OFFSET = 10_000;

    private final TaskLauncher launcher;
    private final BlockFetcher fetcher;
    private final Consumer<List<String>> removeShuffles;
    private final long jobTimeoutMillis;
    private final java.util.concurrent.atomic.AtomicLong sampleRuns = new java.util.concurrent.atomic.AtomicLong();
    private final List<StageListener> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    public DagScheduler(TaskLauncher launcher, BlockFetcher fetcher, Consumer<List<String>> removeShuffles,
            long jobTimeoutMillis) {
        this.launcher = requireNonNull(launcher, "launcher is null");
        this.fetcher = requireNonNull(fetcher, "fetcher is null");
        this.removeShuffles = requireNonNull(removeShuffles, "removeShuffles is null");
        this.jobTimeoutMillis = jobTimeoutMillis;
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
     * as events on a queue, so no lock is shared with the threads that complete them.
     */
    public List<MapStatus> run(String jobId, List<Stage> stages) {
        return run(jobId, stages, new ResolvedSplitPoints());
    }

    /**
     * The same, binding split points already in {@code splits} (resolved by an earlier attempt of
     * the same query) instead of sampling, and recording the ones it resolves there.
     */
    public List<MapStatus> run(String jobId, List<Stage> stages, ResolvedSplitPoints splits) {
        requireNonNull(splits, "splits is null");
        if (stages.isEmpty()) {
            throw new IllegalArgumentException("job " + jobId + " has no stages");
        }
        long deadline = System.currentTimeMillis() + jobTimeoutMillis;
        Map<String, List<MapStatus>> outputs = new HashMap<>();
        Map<Integer, ShuffleWriterExec> plans = new HashMap<>();
        stages.forEach(s -> plans.put(s.id(), s.plan()));
        List<Stage> pending = new ArrayList<>(stages);
        Set<Integer> done = new HashSet<>();
        Map<String, Stage> byShuffle = new HashMap<>();
        stages.forEach(s -> byShuffle.put(s.shuffleId(), s));
        Map<Integer, CompletableFuture<List<MapStatus>>> running = new HashMap<>();
        BlockingQueue<StageEvent> events = new LinkedBlockingQueue<>();
        int[] recoveries = {0};
        try {
            while (!pending.isEmpty()) {
                List<Stage> ready;
                try {
                    ready = runnable(pending, running.keySet(), done, plans, outputs, jobId, deadline, splits);
                } catch (FetchFailedException samplingFailed) {
                    // resolving split points samples the parents' outputs: a lost one is recomputed, then sampled again
                    recover(jobId, samplingFailed, byShuffle, plans, outputs, deadline, recoveries);
                    continue;
                }
                for (Stage stage : ready) {
                    CompletableFuture<List<MapStatus>> tasks = launchTasks(jobId, stage, plans.get(stage.id()), outputs,
                            allPartitions(stage));
                    running.put(stage.id(), tasks);
                    tasks.whenComplete((statuses, error) -> events.add(new StageEvent(stage, statuses, error)));
                }
                if (running.isEmpty()) {
                    throw new IllegalStateException("job " + jobId + ": no stage can run; pending " + pending);
                }
                StageEvent event = nextEvent(events, deadline, jobId);
                running.remove(event.stage().id());
                if (event.error() != null) {
                    Throwable cause = unwrap(event.error());
                    if (cause instanceof FetchFailedException fetchFailed) {
                        // the stage is submitted again on the next turn, once its lost inputs are rewritten
                        recover(jobId, fetchFailed, byShuffle, plans, outputs, deadline, recoveries);
                        continue;
                    }
                    throw failure(cause, jobId, event.stage());
                }
                outputs.put(event.stage().shuffleId(), event.statuses());
                pending.remove(event.stage());
                done.add(event.stage().id());
                for (StageListener listener : listeners) {
                    listener.stageCompleted(jobId, event.stage().id());
                }
            }
        } finally {
            // a failed job leaves no task running: queued ones never start
            running.values().forEach(f -> f.cancel(false));
        }
        return outputs.get(stages.get(stages.size() - 1).shuffleId());
    }

    /** A stage's tasks all finished ({@code statuses}), or one failed ({@code error}). */
    private record StageEvent(Stage stage, List<MapStatus> statuses, Throwable error) {
    }

    /**
     * The pending stages that can be submitted now: not running, parents done, and range split
     * points resolved (resolving them here when the whole group sharing them is ready).
     */
    private List<Stage> runnable(List<Stage> pending, Set<Integer> running, Set<Integer> done,
            Map<Integer, ShuffleWriterExec> plans, Map<String, List<MapStatus>> outputs, String jobId, long deadline,
            ResolvedSplitPoints splits) {
        List<Stage> ready = new ArrayList<>();
        for (Stage candidate : pending) {
            if (running.contains(candidate.id()) || !done.containsAll(candidate.parents())) {
                continue;
            }
            Optional<Partitioning.Range> range = unresolvedRange(plans.get(candidate.id()));
            if (range.isPresent()) {
                String id = range.get().splits().id();
                Optional<List<List<Object>>> recorded = splits.get(id);
                if (recorded.isPresent()) {
                    bindSplits(plans, candidate, recorded.get());
                    ready.add(candidate);
                    continue;
                }
                List<Stage> group = pending.stream()
                        .filter(s -> unresolvedRange(plans.get(s.id())).map(r -> r.splits().id().equals(id)).orElse(false))
                        .toList();
                if (!group.stream().allMatch(s -> done.containsAll(s.parents()))) {
                    continue;
                }
                resolveSplits(jobId, group, plans, outputs, deadline, splits);
            }
            ready.add(candidate);
        }
        return ready;
    }

    private static StageEvent nextEvent(BlockingQueue<StageEvent> events, long deadline, String jobId) {
        try {
            StageEvent event = events.poll(Math.max(1, deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
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

    private List<MapStatus> runStage(String jobId, Stage stage, ShuffleWriterExec plan,
            Map<String, List<MapStatus>> outputs, long deadline) {
        return runTasks(jobId, stage, plan, outputs, deadline, allPartitions(stage));
    }

    /** Runs the stage's tasks for {@code partitions} and waits; their map outputs, in that order. */
    private List<MapStatus> runTasks(String jobId, Stage stage, ShuffleWriterExec plan,
            Map<String, List<MapStatus>> outputs, long deadline, List<Integer> partitions) {
        return await(launchTasks(jobId, stage, plan, outputs, partitions), deadline, jobId, stage);
    }

    /**
     * Submits the stage's tasks for {@code partitions}; the future completes with their map outputs
     * in that order, or fails with the first task's failure, the others then being cancelled (queued
     * ones never start; running ones finish and are ignored). Cancelling the future cancels them all.
     */
    private CompletableFuture<List<MapStatus>> launchTasks(String jobId, Stage stage, ShuffleWriterExec plan,
            Map<String, List<MapStatus>> outputs, List<Integer> partitions) {
        ShuffleWriterExec bound = (ShuffleWriterExec) ExecutionPlans.transformUp(plan, node -> bindReader(node, outputs));
        for (StageListener listener : listeners) {
            listener.stageSubmitted(jobId, stage.id(), bound, List.copyOf(partitions));
        }
        byte[] bytes = Kryos.serialize(bound);
        LOG.debug("job {} stage {}: {} tasks", jobId, stage.id(), partitions.size());
        List<CompletableFuture<MapStatus>> futures = new ArrayList<>(partitions.size());
        for (int p : partitions) {
            futures.add(launcher.launch(jobId, stage.id(), p, bytes));
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
     * recomputed first if they are lost too). Bounded by {@link #MAX_RECOVERIES} per job.
     */
    private void recover(String jobId, FetchFailedException failed, Map<String, Stage> byShuffle,
            Map<Integer, ShuffleWriterExec> plans, Map<String, List<MapStatus>> outputs, long deadline, int[] recoveries) {
        FetchFailure failure = failed.failure();
        Stage parent = byShuffle.get(failure.shuffleId());
        List<MapStatus> statuses = parent == null ? null : outputs.get(parent.shuffleId());
        if (statuses == null) {
            throw new TaskFailedException("job " + jobId + ": cannot recompute " + failure + ": " + failed.getMessage());
        }
        if (failure.serverLost() && failure.map() < statuses.size() && !livesOn(statuses.get(failure.map()), failure)) {
            // another stage's failure already moved this output off the lost server: just read it again
            return;
        }
        if (++recoveries[0] > MAX_RECOVERIES) {
            throw new TaskFailedException("job " + jobId + " lost map outputs " + MAX_RECOVERIES + " times; last: "
                    + failed.getMessage());
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
        LOG.warn("job {}: recomputing {} map outputs of stage {} lost with {}:{}", jobId, lost.size(), parent.id(),
                failure.host(), failure.port());
        while (true) {
            try {
                List<MapStatus> recomputed = runTasks(jobId, parent, plans.get(parent.id()), outputs, deadline, lost);
                List<MapStatus> updated = new ArrayList<>(statuses);
                for (int i = 0; i < lost.size(); i++) {
                    updated.set(lost.get(i), recomputed.get(i));
                }
                outputs.put(parent.shuffleId(), updated);
                return;
            } catch (FetchFailedException deeper) {
                recover(jobId, deeper, byShuffle, plans, outputs, deadline, recoveries);
            }
        }
    }

    /** Whether this map output is served by the shuffle server the failure names. */
    private static boolean livesOn(MapStatus status, FetchFailure failure) {
        return status.host().equals(failure.host()) && status.port() == failure.port();
    }

    private static Optional<Partitioning.Range> unresolvedRange(ShuffleWriterExec writer) {
        if (writer.outputPartitioning() instanceof Partitioning.Range range && !range.splits().resolved()) {
            return Optional.of(range);
        }
        return Optional.empty();
    }

    /**
     * The stage's input narrowed to the columns its sort keys read, when the input can take that
     * projection ({@code trySwappingWithProjection}: a scan then decodes only those columns), so
     * the sampling run reads less than the real one. Partitions are unchanged.
     */
    private static ExecutionPlan keysOnly(ExecutionPlan input, List<SortKey> keys) {
        Set<String> used = new java.util.LinkedHashSet<>();
        keys.forEach(k -> used.addAll(Exprs.columns(k.expr())));
        if (used.isEmpty() || used.size() == input.schema().size()) {
            return input;
        }
        List<Expr> projection = used.stream().map(c -> (Expr) new Column(c)).toList();
        return input.trySwappingWithProjection(projection)
                .filter(p -> p.properties().partitioning().partitionCount() == input.properties().partitioning().partitionCount())
                .orElse(input);
    }

    /** The stage's writer bound to the recorded boundaries of its split points. */
    private static void bindSplits(Map<Integer, ShuffleWriterExec> plans, Stage stage, List<List<Object>> boundaries) {
        ShuffleWriterExec writer = plans.get(stage.id());
        Partitioning.Range r = (Partitioning.Range) writer.outputPartitioning();
        plans.put(stage.id(), new ShuffleWriterExec(writer.input(), r.withBoundaries(boundaries), writer.shuffleId()));
    }

    private void resolveSplits(String jobId, List<Stage> group, Map<Integer, ShuffleWriterExec> plans,
            Map<String, List<MapStatus>> outputs, long deadline, ResolvedSplitPoints splits) {
        List<Batch> samples = new ArrayList<>();
        List<String> sampleShuffles = new ArrayList<>();
        try {
            Partitioning.Range range = null;
            for (Stage stage : group) {
                ShuffleWriterExec writer = plans.get(stage.id());
                range = (Partitioning.Range) writer.outputPartitioning();
                // A fresh id per try: a retry after a lost input must not meet the first try's cleanup.
                String shuffleId = stage.shuffleId() + "-sample" + sampleRuns.incrementAndGet();
                ShuffleWriterExec sampler = new ShuffleWriterExec(
                        new SampleExec(keysOnly(writer.input(), range.keys()), range.keys(), SAMPLE_ROWS_PER_PARTITION),
                        new Partitioning.Single(),
                        shuffleId);
                sampleShuffles.add(shuffleId);
                Stage sampling = new Stage(SAMPLE_STAGE_OFFSET + stage.id(), shuffleId, sampler, stage.parents());
                samples.addAll(fetcher.fetchAll(jobId, shuffleId, runStage(jobId, sampling, sampler, outputs, deadline)));
            }
            List<List<Object>> boundaries = RangeBoundaries.computeFromBatches(samples, range.keys(), range.partitionCount());
            splits.record(range.splits().id(), boundaries);
            for (Stage stage : group) {
                bindSplits(plans, stage, boundaries);
            }
            LOG.debug("job {}: split points {} resolved to {} boundaries", jobId, range.splits().id(), boundaries.size());
        } finally {
            samples.forEach(Batch::close);
            removeShuffles.accept(sampleShuffles);
        }
    }

    private static ExecutionPlan bindReader(ExecutionPlan node, Map<String, List<MapStatus>> outputs) {
        if (node instanceof ShuffleReaderExec reader) {
            List<MapStatus> statuses = outputs.get(reader.shuffleId());
            if (statuses == null) {
                throw new IllegalStateException("stage reads shuffle " + reader.shuffleId() + " before it ran");
            }
            return reader.withMapOutputs(statuses);
        }
        return node;
    }

    private static <T> T await(CompletableFuture<T> future, long deadline, String jobId, Stage stage) {
        try {
            return future.get(Math.max(1, deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | CompletionException e) {
            throw failure(unwrap(e), jobId, stage);
        } catch (TimeoutException e) {
            future.cancel(false);
            throw new SluiceException("job " + jobId + " timed out in stage " + stage.id());
        } catch (InterruptedException e) {
            future.cancel(false);
            Thread.currentThread().interrupt();
            throw new SluiceException("job " + jobId + " was interrupted");
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
