package io.sluice.coordinator.scheduler;

import static java.util.Objects.requireNonNull;

import io.sluice.cluster.serialization.Kryos;
import io.sluice.plan.SluiceException;
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
import java.util.concurrent.CompletableFuture;
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
    }

    /** How many lost-output recoveries one job may make before it fails. */
    static final int MAX_RECOVERIES = 8;

    /** Sampled key rows per map partition when resolving range split points. */
    static final int SAMPLE_ROWS_PER_PARTITION = 1000;

    /** Sampling runs of stage n are numbered n + this, so their task ids differ from the real stage's. */
    static final int SAMPLE_STAGE_OFFSET = 10_000;

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
     * Runs the stages; returns the last (result) stage's map outputs. A stage whose writer
     * range-partitions over split points not yet resolved waits until every stage sharing those
     * split points can run; then each of them runs once as a sampling stage, one boundary set is
     * computed from all the samples, and it is bound into all of them, so their partitions line up.
     */
    public List<MapStatus> run(String jobId, List<Stage> stages) {
        long deadline = System.currentTimeMillis() + jobTimeoutMillis;
        Map<String, List<MapStatus>> outputs = new HashMap<>();
        Map<Integer, ShuffleWriterExec> plans = new HashMap<>();
        stages.forEach(s -> plans.put(s.id(), s.plan()));
        List<Stage> pending = new ArrayList<>(stages);
        Set<Integer> done = new HashSet<>();
        List<MapStatus> last = List.of();
        Map<String, Stage> byShuffle = new HashMap<>();
        stages.forEach(s -> byShuffle.put(s.shuffleId(), s));
        int[] recoveries = {0};
        while (!pending.isEmpty()) {
            Stage next = null;
            try {
                for (Stage candidate : pending) {
                    if (!done.containsAll(candidate.parents())) {
                        continue;
                    }
                    Optional<Partitioning.Range> range = unresolvedRange(plans.get(candidate.id()));
                    if (range.isEmpty()) {
                        next = candidate;
                        break;
                    }
                    String id = range.get().splits().id();
                    List<Stage> group = pending.stream()
                            .filter(s -> unresolvedRange(plans.get(s.id())).map(r -> r.splits().id().equals(id)).orElse(false))
                            .toList();
                    if (group.stream().allMatch(s -> done.containsAll(s.parents()))) {
                        resolveSplits(jobId, group, plans, outputs, deadline);
                        next = candidate;
                        break;
                    }
                }
                if (next == null) {
                    throw new IllegalStateException("job " + jobId + ": no stage can run; pending " + pending);
                }
                last = runStage(jobId, next, plans.get(next.id()), outputs, deadline);
            } catch (FetchFailedException e) {
                recover(jobId, e, byShuffle, plans, outputs, deadline, recoveries);
                continue; // the stage runs again, now that its inputs exist
            }
            outputs.put(next.shuffleId(), last);
            pending.remove(next);
            done.add(next.id());
            for (StageListener listener : listeners) {
                listener.stageCompleted(jobId, next.id());
            }
        }
        return last;
    }

    private List<MapStatus> runStage(String jobId, Stage stage, ShuffleWriterExec plan,
            Map<String, List<MapStatus>> outputs, long deadline) {
        List<Integer> all = new ArrayList<>();
        for (int p = 0; p < stage.taskCount(); p++) {
            all.add(p);
        }
        return runTasks(jobId, stage, plan, outputs, deadline, all);
    }

    /** Runs the stage's tasks for {@code partitions}; their map outputs, in that order. */
    private List<MapStatus> runTasks(String jobId, Stage stage, ShuffleWriterExec plan,
            Map<String, List<MapStatus>> outputs, long deadline, List<Integer> partitions) {
        ShuffleWriterExec bound = (ShuffleWriterExec) ExecutionPlans.transformUp(plan, node -> bindReader(node, outputs));
        byte[] bytes = Kryos.serialize(bound);
        LOG.debug("job {} stage {}: {} tasks", jobId, stage.id(), partitions.size());
        List<CompletableFuture<MapStatus>> futures = new ArrayList<>(partitions.size());
        for (int p : partitions) {
            futures.add(launcher.launch(jobId, stage.id(), p, bytes));
        }
        // Fail fast: the first failed task ends the stage, and the others are cancelled (queued
        // ones never start; running ones finish and are ignored).
        CompletableFuture<Void> firstFailure = new CompletableFuture<>();
        for (CompletableFuture<MapStatus> f : futures) {
            f.whenComplete((status, error) -> {
                if (error != null) {
                    firstFailure.completeExceptionally(error);
                }
            });
        }
        CompletableFuture<Object> finished = CompletableFuture.anyOf(
                CompletableFuture.allOf(futures.toArray(new CompletableFuture<?>[0])), firstFailure);
        try {
            await(finished, deadline, jobId, stage);
        } catch (RuntimeException e) {
            futures.forEach(f -> f.cancel(false));
            throw e;
        }
        List<MapStatus> statuses = new ArrayList<>(partitions.size());
        for (CompletableFuture<MapStatus> f : futures) {
            statuses.add(f.join());
        }
        return statuses;
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
        if (++recoveries[0] > MAX_RECOVERIES) {
            throw new TaskFailedException("job " + jobId + " lost map outputs " + MAX_RECOVERIES + " times; last: "
                    + failed.getMessage());
        }
        Stage parent = byShuffle.get(failure.shuffleId());
        List<MapStatus> statuses = parent == null ? null : outputs.get(parent.shuffleId());
        if (statuses == null) {
            throw new TaskFailedException("job " + jobId + ": cannot recompute " + failure + ": " + failed.getMessage());
        }
        List<Integer> lost = new ArrayList<>();
        for (int m = 0; m < statuses.size() && failure.serverLost(); m++) {
            MapStatus s = statuses.get(m);
            if (s.host().equals(failure.host()) && s.port() == failure.port()) {
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

    private static Optional<Partitioning.Range> unresolvedRange(ShuffleWriterExec writer) {
        if (writer.outputPartitioning() instanceof Partitioning.Range range && !range.splits().resolved()) {
            return Optional.of(range);
        }
        return Optional.empty();
    }

    private void resolveSplits(String jobId, List<Stage> group, Map<Integer, ShuffleWriterExec> plans,
            Map<String, List<MapStatus>> outputs, long deadline) {
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
                        new SampleExec(writer.input(), range.keys(), SAMPLE_ROWS_PER_PARTITION), new Partitioning.Single(),
                        shuffleId);
                sampleShuffles.add(shuffleId);
                Stage sampling = new Stage(SAMPLE_STAGE_OFFSET + stage.id(), shuffleId, sampler, stage.parents());
                samples.addAll(fetcher.fetchAll(jobId, shuffleId, runStage(jobId, sampling, sampler, outputs, deadline)));
            }
            List<List<Object>> boundaries = RangeBoundaries.computeFromBatches(samples, range.keys(), range.partitionCount());
            for (Stage stage : group) {
                ShuffleWriterExec writer = plans.get(stage.id());
                Partitioning.Range r = (Partitioning.Range) writer.outputPartitioning();
                plans.put(stage.id(), new ShuffleWriterExec(writer.input(), r.withBoundaries(boundaries), writer.shuffleId()));
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
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof SluiceException user) {
                throw user;
            }
            if (cause instanceof TaskFailedException failed) {
                throw failed;
            }
            if (cause instanceof FetchFailedException fetch) {
                throw fetch;
            }
            throw new TaskFailedException("job " + jobId + " stage " + stage.id() + " failed: " + cause);
        } catch (TimeoutException e) {
            future.cancel(false);
            throw new SluiceException("job " + jobId + " timed out in stage " + stage.id());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SluiceException("job " + jobId + " was interrupted");
        }
    }
}
