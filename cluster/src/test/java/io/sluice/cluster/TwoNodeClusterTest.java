package io.sluice.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.esotericsoftware.kryo.KryoException;
import com.typesafe.config.ConfigFactory;
import io.sluice.cluster.protocol.CoordinatorCommand;
import io.sluice.cluster.protocol.GetMapOutputs;
import io.sluice.cluster.protocol.MapOutputs;
import io.sluice.cluster.protocol.MessagePart;
import io.sluice.cluster.protocol.RegisterWorker;
import io.sluice.cluster.protocol.RunTask;
import io.sluice.cluster.protocol.ServiceKeys;
import io.sluice.cluster.protocol.TaskDescription;
import io.sluice.cluster.protocol.TaskFinished;
import io.sluice.cluster.protocol.WorkerCommand;
import io.sluice.cluster.protocol.WorkerRegistered;
import io.sluice.cluster.serialization.KryoPekkoSerializer;
import io.sluice.cluster.serialization.Kryos;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.operators.MapStatus;
import io.sluice.testfixtures.Ports;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.serialization.SerializationExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Real two-node clusters on 127.0.0.1 in one JVM: registration and one task round trip over Kryo. */
class TwoNodeClusterTest {
    private static final String HOST = "127.0.0.1";
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** Map outputs in the test coordinator's answers: more than one frame holds. */
    private static final int MAP_OUTPUTS = 30_000;

    private final List<ActorSystem<?>> systems = new ArrayList<>();

    @AfterEach
    void stopAll() {
        // Workers first, so the coordinator sees them leave rather than vanish.
        for (int i = systems.size() - 1; i >= 0; i--) {
            assertThat(SluiceNode.terminate(systems.get(i), WAIT)).as("terminated").isTrue();
        }
    }

    /** Results the test actors hand back to the test thread. */
    static final class Probe {
        final CompletableFuture<RegisterWorker> registered = new CompletableFuture<>();
        final CompletableFuture<String> acknowledgedBy = new CompletableFuture<>();
        final CompletableFuture<LogicalPlan> planOnWorker = new CompletableFuture<>();
        final CompletableFuture<TaskFinished> finished = new CompletableFuture<>();
        /** Every report the coordinator got, in order. */
        final java.util.concurrent.BlockingQueue<TaskFinished> reports = new java.util.concurrent.LinkedBlockingQueue<>();
        final CompletableFuture<byte[]> planBytesOnWorker = new CompletableFuture<>();
        final CompletableFuture<MapOutputs> mapOutputsOnWorker = new CompletableFuture<>();
        /** The error the worker reports for its task instead of running it; null: it runs the task. */
        volatile String reportedError;
    }

    /** Registers with the receptionist; on RegisterWorker acks, then sends one task (as the coordinator does). */
    static Behavior<CoordinatorCommand> coordinator(Probe probe, byte[] plan) {
        return coordinator(probe, plan, LargeMessages.RelayLimits.DEFAULT);
    }

    /** The same, its relay holding at most {@code relayLimits}. */
    static Behavior<CoordinatorCommand> coordinator(Probe probe, byte[] plan, LargeMessages.RelayLimits relayLimits) {
        return Behaviors.setup(ctx -> {
            ctx.getSystem().receptionist().tell(Receptionist.register(ServiceKeys.COORDINATOR, ctx.getSelf()));
            LargeMessages.openRelay(ctx, relayLimits);
            return Behaviors.receive(CoordinatorCommand.class)
                    .onMessage(RegisterWorker.class, m -> {
                        probe.registered.complete(m);
                        m.worker().tell(new WorkerRegistered("coordinator-1", "session-1"));
                        LargeMessages.tell(m.worker(), new RunTask(new TaskDescription("job-1", "task-1-0", 1, 0, 0,
                                plan), ctx.getSelf(), "session-1"), ctx.getSystem());
                        return Behaviors.same();
                    })
                    .onMessage(TaskFinished.class, m -> {
                        probe.finished.complete(m);
                        probe.reports.add(m);
                        return Behaviors.same();
                    })
                    .onMessage(GetMapOutputs.class, m -> {
                        List<MapStatus> blocks = new ArrayList<>();
                        for (int map = 0; map < MAP_OUTPUTS; map++) {
                            blocks.add(new MapStatus(m.workerId(), HOST, 7337, new long[] {map}));
                        }
                        LargeMessages.tell(m.replyTo(), MapOutputs.of(blocks), ctx.getSystem());
                        return Behaviors.same();
                    })
                    .build();
        });
    }

    /** Local-only wrapper for the receptionist's answers; never crosses nodes. */
    private record CoordinatorListing(Receptionist.Listing listing) implements WorkerCommand {
    }

    /**
     * Finds the coordinator, registers once, then runs tasks by reading their plan back (or reports
     * the probe's error), answering as the worker does.
     */
    static Behavior<WorkerCommand> worker(Probe probe, String workerId) {
        return Behaviors.setup(ctx -> {
            LargeMessages.openRelay(ctx);
            ActorRef<Receptionist.Listing> adapter = ctx.messageAdapter(Receptionist.Listing.class,
                    CoordinatorListing::new);
            ctx.getSystem().receptionist().tell(Receptionist.subscribe(ServiceKeys.COORDINATOR, adapter));
            boolean[] sent = {false};
            return Behaviors.receive(WorkerCommand.class)
                    .onMessage(CoordinatorListing.class, m -> {
                        var coordinators = m.listing().getServiceInstances(ServiceKeys.COORDINATOR);
                        if (!sent[0] && !coordinators.isEmpty()) {
                            sent[0] = true;
                            coordinators.iterator().next()
                                    .tell(new RegisterWorker(workerId, ctx.getSelf(), HOST, 7337, 4));
                        }
                        return Behaviors.same();
                    })
                    .onMessage(WorkerRegistered.class, m -> {
                        probe.acknowledgedBy.complete(m.coordinatorId());
                        return Behaviors.same();
                    })
                    .onMessage(RunTask.class, m -> {
                        probe.planBytesOnWorker.complete(m.task().plan());
                        if (probe.reportedError != null) {
                            // asks, as a task reading a partition it was not sent does, then reports
                            AskPattern.<CoordinatorCommand, MapOutputs>ask(m.replyTo(),
                                    replyTo -> new GetMapOutputs("job-1", "shuffle-1", 0, replyTo, workerId, "session-1"),
                                    WAIT, ctx.getSystem().scheduler())
                                    .thenAccept(probe.mapOutputsOnWorker::complete);
                            LargeMessages.tell(m.replyTo(), TaskFinished.failed(m.task().taskId(), workerId,
                                    probe.reportedError, false), ctx.getSystem());
                            return Behaviors.same();
                        }
                        LogicalPlan plan = Kryos.deserialize(m.task().plan(), LogicalPlan.class);
                        probe.planOnWorker.complete(plan);
                        MapStatus status = new MapStatus(workerId, HOST, 7337,
                                new long[] {m.task().partition(), plan.explain().length()});
                        LargeMessages.tell(m.replyTo(), TaskFinished.succeeded(m.task().taskId(), workerId, status),
                                ctx.getSystem());
                        return Behaviors.same();
                    })
                    .build();
        });
    }

    @Test
    void workerRegistersAndRunsATaskOverKryo() throws Exception {
        Probe probe = new Probe();
        LogicalPlan plan = SamplePlans.samplePlan();
        // a fixed port, as a coordinator's --port gives (it seeds itself through its own address);
        // in this JVM the bind follows the choice at once, so another process rarely takes it between
        int port = Ports.free();
        ActorSystem<CoordinatorCommand> coordinatorSystem = start(coordinator(probe, Kryos.serialize(plan)),
                NodeConfig.coordinator(HOST, port).withStableAfter(Duration.ofSeconds(2)));
        assertThat(SluiceNode.selfAddressString(coordinatorSystem)).isEqualTo(NodeConfig.address(HOST, port));

        ActorSystem<WorkerCommand> workerSystem = start(worker(probe, "worker-1"),
                NodeConfig.worker(HOST, 0, NodeConfig.address(HOST, port)).withStableAfter(Duration.ofSeconds(2)));
        int workerPort = (Integer) SluiceNode.selfAddress(workerSystem).getPort().get();
        assertThat(workerPort).isPositive().isNotEqualTo(port);

        RegisterWorker registered = probe.registered.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(registered.workerId()).isEqualTo("worker-1");
        assertThat(registered.slots()).isEqualTo(4);
        assertThat(registered.worker().path().address().port().get()).isEqualTo(workerPort);
        assertThat(probe.acknowledgedBy.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("coordinator-1");
        assertThat(probe.planOnWorker.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(plan);

        TaskFinished finished = probe.finished.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(finished.taskId()).isEqualTo("task-1-0");
        assertThat(finished.workerId()).isEqualTo("worker-1");
        assertThat(finished.succeeded()).isTrue();
        assertThat(finished.status().port()).isEqualTo(7337);
        assertThat(finished.status().bytesPerPartition()).containsExactly(0, plan.explain().length());

        // Every cross-node message went through Kryo: both sides serialized and deserialized.
        KryoPekkoSerializer onCoordinator = kryoSerializer(coordinatorSystem);
        KryoPekkoSerializer onWorker = kryoSerializer(workerSystem);
        assertThat(onWorker.serializedCount()).isGreaterThanOrEqualTo(2); // RegisterWorker, TaskFinished
        assertThat(onCoordinator.deserializedCount()).isGreaterThanOrEqualTo(2);
        assertThat(onCoordinator.serializedCount()).isGreaterThanOrEqualTo(2); // WorkerRegistered, RunTask
        assertThat(onWorker.deserializedCount()).isGreaterThanOrEqualTo(2);
        assertThat(coordinatorSystem.settings().config().getBoolean("pekko.actor.allow-java-serialization"))
                .isFalse();
        // membership converges on its own gossip schedule, which may trail the messages above
        awaitUntil(() -> memberRoles(coordinatorSystem).size() == 2);
        assertThat(memberRoles(coordinatorSystem)).containsExactlyInAnyOrder("coordinator", "worker");

        // Outside Pekko there is no resolver: plain Kryos refuses actor references clearly.
        assertThatThrownBy(() -> Kryos.serialize(registered))
                .isInstanceOf(KryoException.class).hasMessageContaining("ActorRef");
    }

    /**
     * A task whose plan, a report whose error and an ask's answer larger than Artery's frames cross
     * to the other node whole: in parts, joined by its relay. Sent whole, Artery would drop them as
     * oversized and nothing would arrive.
     */
    @Test
    void messagesLargerThanAnOrdinaryFrameCrossThroughTheRelays() throws Exception {
        Probe probe = new Probe();
        byte[] plan = new byte[2 * 1024 * 1024];
        new java.util.Random(7).nextBytes(plan);
        probe.reportedError = "x".repeat(LargeMessages.ORDINARY_FRAME_BYTES * 3);
        ActorSystem<CoordinatorCommand> coordinatorSystem = start(coordinator(probe, plan),
                NodeConfig.coordinator(HOST, 0).withStableAfter(Duration.ofSeconds(2)));
        int port = (Integer) SluiceNode.selfAddress(coordinatorSystem).getPort().get();
        ActorSystem<WorkerCommand> workerSystem = start(worker(probe, "worker-1"),
                NodeConfig.worker(HOST, 0, NodeConfig.address(HOST, port)).withStableAfter(Duration.ofSeconds(2)));
        assertThat(coordinatorSystem.settings().config().getBytes("pekko.remote.artery.advanced.maximum-frame-size"))
                .isEqualTo(LargeMessages.ORDINARY_FRAME_BYTES);

        assertThat(probe.planBytesOnWorker.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(plan);
        TaskFinished finished = probe.finished.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(finished.error()).isEqualTo(probe.reportedError);
        MapOutputs answer = probe.mapOutputsOnWorker.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(answer.blocks()).hasSize(MAP_OUTPUTS);
        assertThat(answer.blocks().get(MAP_OUTPUTS - 1).bytesPerPartition()).containsExactly(MAP_OUTPUTS - 1);
        assertThat(Kryos.serialize(answer).length).isGreaterThan(LargeMessages.ORDINARY_FRAME_BYTES);

        // past what a node reads, a message is refused at its sender, saying why
        ActorRef<WorkerCommand> worker = probe.registered.get(WAIT.toSeconds(), TimeUnit.SECONDS).worker();
        RunTask tooLarge = new RunTask(new TaskDescription("job-1", "task-1-1", 1, 1, 0,
                new byte[Kryos.MAX_MESSAGE_BYTES]), coordinatorSystem, "session-1");
        assertThatThrownBy(() -> LargeMessages.tell(worker, tooLarge, coordinatorSystem))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("RunTask cannot be sent");
        assertThat(workerSystem.settings().config().getBytes("pekko.remote.artery.advanced.maximum-frame-size"))
                .isEqualTo(LargeMessages.ORDINARY_FRAME_BYTES);
    }

    /**
     * The relay hands on a message only when all its parts came in order, and holds no more than
     * its limits: here one message being joined, so a second one drops the first, whose later part
     * is then dropped too; a part without its earlier ones is dropped.
     */
    @Test
    void theRelayJoinsPartsInOrderAndDropsWhatItCannotHold() throws Exception {
        Probe probe = new Probe();
        ActorSystem<CoordinatorCommand> coordinatorSystem = start(coordinator(probe, Kryos.serialize(SamplePlans.samplePlan()),
                new LargeMessages.RelayLimits(1, 1 << 20, TimeUnit.SECONDS.toNanos(60))),
                NodeConfig.coordinator(HOST, 0).withStableAfter(Duration.ofSeconds(2)));
        int port = (Integer) SluiceNode.selfAddress(coordinatorSystem).getPort().get();
        ActorSystem<WorkerCommand> workerSystem = start(worker(probe, "worker-1"),
                NodeConfig.worker(HOST, 0, NodeConfig.address(HOST, port)).withStableAfter(Duration.ofSeconds(2)));
        assertThat(probe.reports.poll(WAIT.toSeconds(), TimeUnit.SECONDS).succeeded()).isTrue(); // the task's report

        ActorRefResolver resolver = ActorRefResolver.get(workerSystem);
        ActorRef<MessagePart> relay = resolver.resolveActorRef(NodeConfig.address(HOST, port) + "/user/large");
        ActorRef<CoordinatorCommand> coordinator = resolver.resolveActorRef(NodeConfig.address(HOST, port) + "/user");
        byte[][] a = halves(workerSystem, "a");
        byte[][] b = halves(workerSystem, "b");
        byte[][] c = halves(workerSystem, "c");
        relay.tell(new MessagePart("a", 0, 2, coordinator, a[0]));
        relay.tell(new MessagePart("b", 0, 2, coordinator, b[0])); // one message at a time: a is dropped
        relay.tell(new MessagePart("a", 1, 2, coordinator, a[1]));
        relay.tell(new MessagePart("b", 1, 2, coordinator, b[1]));
        relay.tell(new MessagePart("c", 1, 2, coordinator, c[1])); // its first part never came
        relay.tell(new MessagePart("c", 0, 2, coordinator, c[0]));
        relay.tell(new MessagePart("c", 1, 2, coordinator, c[1]));
        assertThat(probe.reports.poll(WAIT.toSeconds(), TimeUnit.SECONDS).error()).isEqualTo("b");
        assertThat(probe.reports.poll(WAIT.toSeconds(), TimeUnit.SECONDS).error()).isEqualTo("c");
        assertThat(probe.reports.poll(1, TimeUnit.SECONDS)).isNull();
    }

    /** A report whose error is {@code error}, as {@code system} serializes it, cut in two. */
    private static byte[][] halves(ActorSystem<?> system, String error) throws Exception {
        TaskFinished report = TaskFinished.failed("task-" + error, "worker-1", error, false).withSession("session-1");
        byte[] bytes = SerializationExtension.get(Adapter.toClassic(system)).serializerFor(TaskFinished.class)
                .toBinary(report);
        int half = bytes.length / 2;
        return new byte[][] {java.util.Arrays.copyOf(bytes, half), java.util.Arrays.copyOfRange(bytes, half, bytes.length)};
    }

    @Test
    void coordinatorOnPortZeroStartsItsOwnClusterAndSurvivesAWorkerDying() throws Exception {
        Probe probe = new Probe();
        ActorSystem<CoordinatorCommand> coordinatorSystem = start(
                coordinator(probe, Kryos.serialize(SamplePlans.samplePlan())),
                NodeConfig.coordinator(HOST, 0).withStableAfter(Duration.ofSeconds(2))
                        .withHeartbeatPause(Duration.ofSeconds(3)));
        String seed = SluiceNode.selfAddressString(coordinatorSystem);

        // This worker's system stops without leaving the cluster, as if its process were killed.
        ActorSystem<WorkerCommand> workerSystem = SluiceNode.start(worker(probe, "worker-2"),
                NodeConfig.worker(HOST, 0, seed).withStableAfter(Duration.ofSeconds(2))
                        .withHeartbeatPause(Duration.ofSeconds(3)),
                ConfigFactory.parseString("pekko.coordinated-shutdown.run-by-actor-system-terminate = off")
                        .withFallback(ConfigFactory.load()));
        probe.finished.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        awaitUntil(() -> memberRoles(coordinatorSystem).size() == 2);

        workerSystem.terminate();
        workerSystem.getWhenTerminated().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);

        // The split brain resolver downs the worker; the coordinator stays up and alone.
        awaitUntil(() -> memberRoles(coordinatorSystem).equals(List.of("coordinator")));
        assertThat(Cluster.get(coordinatorSystem).selfMember().status()).isEqualTo(MemberStatus.up());
        assertThat(coordinatorSystem.whenTerminated().isCompleted()).isFalse();
    }

    private <T> ActorSystem<T> start(Behavior<T> guardian, NodeConfig config) {
        ActorSystem<T> system = SluiceNode.start(guardian, config);
        systems.add(system);
        return system;
    }

    private static KryoPekkoSerializer kryoSerializer(ActorSystem<?> system) throws Exception {
        return (KryoPekkoSerializer) SerializationExtension.get(Adapter.toClassic(system))
                .serializerFor(RunTask.class);
    }

    /** Roles of the members the node sees as Up. */
    private static List<String> memberRoles(ActorSystem<?> system) {
        List<String> roles = new ArrayList<>();
        for (Member m : Cluster.get(system).state().getMembers()) {
            if (m.status() == MemberStatus.up()) {
                m.getRoles().stream().filter(r -> !r.startsWith("dc-")).forEach(roles::add);
            }
        }
        return roles;
    }

    private static void awaitUntil(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + WAIT);
            }
            Thread.sleep(50);
        }
    }
}
