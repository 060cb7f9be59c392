package io.sluice.coordinator.scheduler;

import io.sluice.common.SluiceException;
import io.sluice.operators.MapStatus;
import io.sluice.shuffle.ShuffleWriterExec;
import io.sluice.shuffle.stage.Stage;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One job's scheduling state, owned by the job's thread in {@link DagScheduler#run}: stage plans
 * (split points and runtime filters bound as they become known), the map outputs known so far,
 * and how often each stage was submitted. Other threads only add events, cancel, and read progress.
 */
final class ScheduledJob {
    final String id;
    final long deadline;
    final Map<String, List<MapStatus>> outputs = new HashMap<>();
    final Map<Integer, ShuffleWriterExec> plans = new HashMap<>();
    final Map<String, Stage> byShuffle = new HashMap<>();
    final Map<Integer, Integer> attempts = new HashMap<>();
    final RuntimeFilterBinder filters;
    /** Stage completions, and a cancellation (an event without a stage), in arrival order. */
    final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    /** Completed with the reason when the job is cancelled. */
    final CompletableFuture<String> cancelled = new CompletableFuture<>();
    /** Tasks done of each stage's latest submission, read by other threads for progress reports. */
    final Map<Integer, StageCounter> progress = new ConcurrentHashMap<>();
    final int resultStageId;
    final DagScheduler.ResultTaskListener resultTasks;
    private final MapOutputTracker tracker;
    private final int stageMaxAttempts;

    ScheduledJob(String id, List<Stage> stages, DagScheduler.ResultTaskListener resultTasks, long deadline,
            MapOutputTracker tracker, int stageMaxAttempts) {
        this.id = id;
        this.resultStageId = stages.get(stages.size() - 1).id();
        this.resultTasks = resultTasks;
        this.deadline = deadline;
        this.tracker = tracker;
        this.stageMaxAttempts = stageMaxAttempts;
        this.filters = new RuntimeFilterBinder(id);
        stages.forEach(s -> {
            plans.put(s.id(), s.plan());
            byShuffle.put(s.shuffleId(), s);
        });
    }

    void cancel(String reason) {
        if (cancelled.complete(reason)) {
            events.add(new Cancelled());
        }
    }

    SluiceException cancellation() {
        return new SluiceException("job " + id + " was cancelled: " + cancelled.getNow("cancelled"));
    }

    /** Records a stage's (possibly partly recomputed) outputs and tells the tracker. */
    void publish(String shuffleId, List<MapStatus> statuses) {
        List<MapStatus> locations = statuses.stream().map(MapStatus::withoutPublished).toList();
        outputs.put(shuffleId, locations);
        tracker.register(id, shuffleId, locations);
    }

    /** Binds the runtime filters recorded so far into the stage's plan (see {@link RuntimeFilterBinder#bind}). */
    void bindFilters(Stage stage) {
        plans.put(stage.id(), filters.bind(plans.get(stage.id())));
    }

    /**
     * The next attempt number of this stage (its epoch), or a failure once it has been
     * submitted {@code stageMaxAttempts} times; {@code cause} says why it is submitted again.
     */
    int nextAttempt(Stage stage, String cause) {
        int attempt = attempts.merge(stage.id(), 1, Integer::sum) - 1;
        if (attempt >= stageMaxAttempts) {
            throw new AttemptsExhaustedException("job " + id + ": stage " + stage.id() + " was submitted "
                    + stageMaxAttempts + " times (sluice.stage.max-attempts); last cause: " + cause);
        }
        return attempt;
    }

    /** A stage submission's task count and finished tasks, counted by the threads completing them. */
    record StageCounter(int total, AtomicInteger done) {
    }

    /** What the job's thread waits for. */
    sealed interface Event permits StageEvent, Cancelled, ServerLost {
    }

    /** Attempt {@code attempt} of a stage: its tasks all finished ({@code statuses}), or one failed ({@code error}). */
    record StageEvent(Stage stage, int attempt, List<MapStatus> statuses, Throwable error) implements Event {
    }

    /** The job was cancelled ({@link ScheduledJob#cancelled} says why). */
    record Cancelled() implements Event {
    }

    /** The worker serving shuffle files at {@code host:port} left the cluster: its outputs are gone. */
    record ServerLost(String host, int port) implements Event {
    }
}
