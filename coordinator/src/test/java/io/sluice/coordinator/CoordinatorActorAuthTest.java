package io.sluice.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.cluster.NodeConfig;
import io.sluice.cluster.SluiceNode;
import io.sluice.cluster.protocol.CoordinatorCommand;
import io.sluice.cluster.protocol.GetMapOutputs;
import io.sluice.cluster.protocol.MapOutputs;
import io.sluice.cluster.protocol.RegisterWorker;
import io.sluice.cluster.protocol.RunTask;
import io.sluice.cluster.protocol.TaskDescription;
import io.sluice.cluster.protocol.TaskFinished;
import io.sluice.cluster.protocol.WorkerCommand;
import io.sluice.cluster.protocol.WorkerRegistered;
import io.sluice.operators.MapStatus;
import java.time.Duration;
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

/** The coordinator believes a task report only from the worker it sent the task to, with that worker's session. */
class CoordinatorActorAuthTest {
    private ActorSystem<Void> system;

    @AfterEach
    void stop() {
        if (system != null) {
            SluiceNode.terminate(system, Duration.ofSeconds(20));
        }
    }

    @Test
    void forgedTaskReportsAreIgnored() throws Exception {
        BlockingQueue<WorkerCommand> w1 = new LinkedBlockingQueue<>();
        CompletableFuture<ActorRef<CoordinatorCommand>> coordinatorRef = new CompletableFuture<>();
        CompletableFuture<ActorRef<WorkerCommand>> worker1 = new CompletableFuture<>();
        CompletableFuture<ActorRef<WorkerCommand>> worker2 = new CompletableFuture<>();
        system = SluiceNode.start(Behaviors.setup(ctx -> {
            coordinatorRef.complete(ctx.spawn(CoordinatorActor.create("coordinator-test"), "coordinator"));
            worker1.complete(ctx.spawn(recording(w1), "w1"));
            worker2.complete(ctx.spawn(recording(new LinkedBlockingQueue<>()), "w2"));
            return Behaviors.empty();
        }), NodeConfig.coordinator("127.0.0.1", 0));
        ActorRef<CoordinatorCommand> coordinator = coordinatorRef.get(20, TimeUnit.SECONDS);
        coordinator.tell(new RegisterWorker("w1", worker1.get(), "127.0.0.1", 1, 1));
        coordinator.tell(new RegisterWorker("w2", worker2.get(), "127.0.0.1", 2, 1));
        WorkerRegistered registered = (WorkerRegistered) w1.poll(20, TimeUnit.SECONDS);
        assertThat(registered.session()).hasSize(32);

        // one task per worker (each has one slot); w1's is the one forged reports try to finish
        java.util.Map<String, CompletableFuture<MapStatus>> results = new java.util.HashMap<>();
        for (String id : java.util.List.of("t1", "t2")) {
            results.put(id, new CompletableFuture<>());
            coordinator.tell(new CoordinatorActor.LaunchTask(new TaskDescription("job1", id, 0, 0, 0, new byte[] {1}),
                    results.get(id), metrics -> { }));
        }
        RunTask run = (RunTask) w1.poll(20, TimeUnit.SECONDS);
        CompletableFuture<MapStatus> result = results.get(run.task().taskId().substring(0, 2));
        assertThat(run.session()).isEqualTo(registered.session());
        String taskId = run.task().taskId();
        MapStatus status = new MapStatus("w1", "127.0.0.1", 1, new long[] {0});

        coordinator.tell(TaskFinished.succeeded(taskId, "w1", status)); // no session
        coordinator.tell(TaskFinished.succeeded(taskId, "w1", status).withSession("0".repeat(32))); // wrong session
        coordinator.tell(TaskFinished.succeeded(taskId, "w2", status).withSession(registered.session())); // other worker
        Thread.sleep(500);
        assertThat(result).isNotDone();

        coordinator.tell(TaskFinished.succeeded(taskId, "w1", status).withSession(registered.session()));
        assertThat(result.get(20, TimeUnit.SECONDS)).isEqualTo(status);
    }

    @Test
    void mapOutputRequestsAreAnsweredOnlyWithTheWorkersSession() throws Exception {
        BlockingQueue<WorkerCommand> w1 = new LinkedBlockingQueue<>();
        BlockingQueue<MapOutputs> answers = new LinkedBlockingQueue<>();
        CompletableFuture<ActorRef<CoordinatorCommand>> coordinatorRef = new CompletableFuture<>();
        CompletableFuture<ActorRef<WorkerCommand>> worker1 = new CompletableFuture<>();
        CompletableFuture<ActorRef<MapOutputs>> asker = new CompletableFuture<>();
        system = SluiceNode.start(Behaviors.setup(ctx -> {
            coordinatorRef.complete(ctx.spawn(CoordinatorActor.create("coordinator-test"), "coordinator"));
            worker1.complete(ctx.spawn(recording(w1), "w1"));
            asker.complete(ctx.spawn(Behaviors.receive(MapOutputs.class).onAnyMessage(m -> {
                answers.add(m);
                return Behaviors.same();
            }).build(), "asker"));
            return Behaviors.empty();
        }), NodeConfig.coordinator("127.0.0.1", 0));
        ActorRef<CoordinatorCommand> coordinator = coordinatorRef.get(20, TimeUnit.SECONDS);
        coordinator.tell(new RegisterWorker("w1", worker1.get(), "127.0.0.1", 1, 1));
        WorkerRegistered registered = (WorkerRegistered) w1.poll(20, TimeUnit.SECONDS);

        coordinator.tell(new GetMapOutputs("job1", "s1", 0, asker.get(), "w1", "0".repeat(32))); // wrong session
        coordinator.tell(new GetMapOutputs("job1", "s1", 0, asker.get(), "w9", registered.session())); // unknown worker
        assertThat(answers.poll(500, TimeUnit.MILLISECONDS)).isNull();

        coordinator.tell(new GetMapOutputs("job1", "s1", 0, asker.get(), "w1", registered.session()));
        MapOutputs answer = answers.poll(20, TimeUnit.SECONDS);
        assertThat(answer).isNotNull();
        assertThat(answer.error()).contains("no map outputs of shuffle s1");
    }

    private static Behavior<WorkerCommand> recording(BlockingQueue<WorkerCommand> into) {
        return Behaviors.receive(WorkerCommand.class).onAnyMessage(m -> {
            into.add(m);
            return Behaviors.same();
        }).build();
    }
}
