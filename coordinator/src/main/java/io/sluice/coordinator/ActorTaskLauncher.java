package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.cluster.protocol.CoordinatorCommand;
import io.sluice.cluster.protocol.TaskDescription;
import io.sluice.coordinator.scheduler.ShuffleReads;
import io.sluice.coordinator.scheduler.TaskLauncher;
import io.sluice.operators.MapStatus;
import io.sluice.operators.OperatorMetrics;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * Launches a job's tasks through the dispatcher actor ({@link CoordinatorActor}): each launch gets
 * an id of its own and a future the actor completes; cancelling the future tells the worker
 * running it to stop.
 */
public final class ActorTaskLauncher implements TaskLauncher {
    /** Told each successful task's operator metrics, by job, stage and partition. */
    public interface MetricsSink {
        void record(String jobId, int stageId, int partition, OperatorMetrics metrics);
    }

    private final ActorRef<CoordinatorCommand> dispatcher;
    private final MetricsSink metrics;
    private final AtomicLong launches = new AtomicLong();

    public ActorTaskLauncher(ActorRef<CoordinatorCommand> dispatcher, MetricsSink metrics) {
        this.dispatcher = requireNonNull(dispatcher, "dispatcher is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    @Override
    public CompletableFuture<MapStatus> launch(String jobId, int stageId, int partition, byte[] plan) {
        return launch(jobId, stageId, partition, plan, List.of());
    }

    @Override
    public CompletableFuture<MapStatus> launch(String jobId, int stageId, int partition, byte[] plan,
            List<String> preferredHosts) {
        return launch(jobId, stageId, partition, plan, preferredHosts, ShuffleReads.NONE);
    }

    @Override
    public CompletableFuture<MapStatus> launch(String jobId, int stageId, int partition, byte[] plan,
            List<String> preferredHosts, ShuffleReads reads) {
        CompletableFuture<MapStatus> result = new CompletableFuture<>();
        // Unique per launch: a stage re-run after a lost output must not collide with the late reports
        // of its cancelled first run.
        String taskId = jobId + "-s" + stageId + "-p" + partition + "-l" + launches.incrementAndGet();
        TaskDescription task = new TaskDescription(jobId, taskId, stageId, partition, 0, plan);
        Consumer<OperatorMetrics> sink = m -> metrics.record(jobId, stageId, partition, m);
        dispatcher.tell(new CoordinatorActor.LaunchTask(task, result, sink, preferredHosts, reads));
        // the scheduler cancels a task it no longer needs: the worker running it is told to stop
        result.whenComplete((status, error) -> {
            if (result.isCancelled()) {
                dispatcher.tell(new CoordinatorActor.CancelLaunch(taskId));
            }
        });
        return result;
    }
}
