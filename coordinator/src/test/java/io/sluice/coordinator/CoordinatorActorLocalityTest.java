package io.sluice.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.cluster.NodeConfig;
import io.sluice.cluster.SluiceNode;
import io.sluice.cluster.protocol.CoordinatorCommand;
import io.sluice.cluster.protocol.RegisterWorker;
import io.sluice.cluster.protocol.RunTask;
import io.sluice.cluster.protocol.TaskDescription;
import io.sluice.cluster.protocol.TaskFinished;
import io.sluice.cluster.protocol.WorkerCommand;
import io.sluice.cluster.protocol.WorkerRegistered;
import io.sluice.coordinator.scheduler.MapOutputTracker;
import io.sluice.operators.MapStatus;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The dispatcher with two one-slot workers on hosts A and B: a task whose input is on B goes to B
 * though A is tried first; while B is busy the next such task waits, a task without hosts passes
 * it to A, and once its locality wait is over it takes A.
 */
class CoordinatorActorLocalityTest {
    private static final long WAIT_MILLIS = 3_000;

    private ActorSystem<Void> system;

    @AfterEach
    void stop() {
        if (system != null) {
            SluiceNode.terminate(system, Duration.ofSeconds(20));
        }
    }

    @Test
    void tasksGoToTheirHostsWaitBoundedlyAndLetOthersPass() throws Exception {
        BlockingQueue<WorkerCommand> onA = new LinkedBlockingQueue<>();
        BlockingQueue<WorkerCommand> onB = new LinkedBlockingQueue<>();
        CompletableFuture<ActorRef<CoordinatorCommand>> coordinatorRef = new CompletableFuture<>();
        CompletableFuture<ActorRef<WorkerCommand>> workerA = new CompletableFuture<>();
        CompletableFuture<ActorRef<WorkerCommand>> workerB = new CompletableFuture<>();
        SchedulerSettings settings = SchedulerSettings.defaults().with("sluice.locality.wait", WAIT_MILLIS + "ms");
        system = SluiceNode.start(Behaviors.setup(ctx -> {
            coordinatorRef.complete(ctx.spawn(CoordinatorActor.create("coordinator-test", settings, new MapOutputTracker(),
                    (job, metrics) -> { }, (host, port) -> { }), "coordinator"));
            workerA.complete(ctx.spawn(recording(onA), "a"));
            workerB.complete(ctx.spawn(recording(onB), "b"));
            return Behaviors.empty();
        }), NodeConfig.coordinator("127.0.0.1", 0));
        ActorRef<CoordinatorCommand> coordinator = coordinatorRef.get(20, TimeUnit.SECONDS);
        // local actor refs have no host: each worker's host is the one its shuffle server gives
        coordinator.tell(new RegisterWorker("a", workerA.get(), "host-a", 1, 1));
        String sessionA = ((WorkerRegistered) onA.poll(20, TimeUnit.SECONDS)).session();
        coordinator.tell(new RegisterWorker("b", workerB.get(), "host-b", 2, 1));
        assertThat(onB.poll(20, TimeUnit.SECONDS)).isInstanceOf(WorkerRegistered.class);

        launch(coordinator, "onB", List.of("host-b"));
        assertThat(taskId(onB.poll(20, TimeUnit.SECONDS))).isEqualTo("onB");

        long queued = System.nanoTime();
        launch(coordinator, "waitsForB", List.of("host-b"));
        assertThat(onA.poll(500, TimeUnit.MILLISECONDS)).as("a task waiting for host-b").isNull();
        launch(coordinator, "anywhere", List.of());
        RunTask anywhere = (RunTask) onA.poll(20, TimeUnit.SECONDS);
        assertThat(taskId(anywhere)).isEqualTo("anywhere");
        coordinator.tell(TaskFinished.succeeded(anywhere.task().taskId(), "a", new MapStatus("a", "host-a", 1,
                new long[] {0})).withSession(sessionA));

        WorkerCommand next = onA.poll(20, TimeUnit.SECONDS);
        long waited = (System.nanoTime() - queued) / 1_000_000;
        assertThat(taskId(next)).isEqualTo("waitsForB");
        assertThat(waited).as("ms before it took a slot elsewhere").isGreaterThanOrEqualTo(WAIT_MILLIS - 100);
        assertThat(onB.poll(100, TimeUnit.MILLISECONDS)).isNull();
    }

    private static void launch(ActorRef<CoordinatorCommand> coordinator, String id, List<String> hosts) {
        coordinator.tell(new CoordinatorActor.LaunchTask(new TaskDescription("job1", id, 0, 0, 0, new byte[] {1}),
                new CompletableFuture<>(), metrics -> { }, hosts));
    }

    private static String taskId(WorkerCommand command) {
        assertThat(command).isInstanceOf(RunTask.class);
        return ((RunTask) command).task().launchId();
    }

    private static Behavior<WorkerCommand> recording(BlockingQueue<WorkerCommand> into) {
        return Behaviors.receive(WorkerCommand.class).onAnyMessage(m -> {
            into.add(m);
            return Behaviors.same();
        }).build();
    }
}
