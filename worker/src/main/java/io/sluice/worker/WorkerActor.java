package io.sluice.worker;

import io.sluice.cluster.LargeMessages;
import io.sluice.cluster.NodeRole;
import io.sluice.cluster.protocol.CancelTask;
import io.sluice.cluster.protocol.CoordinatorCommand;
import io.sluice.cluster.protocol.GetMapOutputs;
import io.sluice.cluster.protocol.MapOutputs;
import io.sluice.cluster.protocol.RegisterWorker;
import io.sluice.cluster.protocol.RemoveShuffles;
import io.sluice.cluster.protocol.RunTask;
import io.sluice.cluster.protocol.ServiceKeys;
import io.sluice.cluster.protocol.ShuffleServerJoined;
import io.sluice.cluster.protocol.ShuffleServerLost;
import io.sluice.cluster.protocol.TaskFinished;
import io.sluice.cluster.protocol.WorkerCommand;
import io.sluice.cluster.protocol.WorkerRegistered;
import io.sluice.shuffle.MapOutputLocator;
import io.sluice.shuffle.ShuffleClient;
import io.sluice.shuffle.ShuffleServer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.SelfUp;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * A worker's cluster face: registers with the coordinator at its configured address as soon as
 * this node is a member (Joining, or Up), or when the receptionist lists that coordinator first, runs tasks on the slot pool and reports each result,
 * deletes shuffle files when told, and gives up reads from a lost worker's shuffle server when told.
 */
final class WorkerActor extends AbstractBehavior<WorkerCommand> {
    /** Local only: a cluster member left; if it was the coordinator, this worker stops. */
    record MemberLeft(org.apache.pekko.cluster.Member member) implements WorkerCommand {
    }

    /** Local only: a task ended; {@code shuffleId} is what it wrote to (null if its plan did not decode). */
    record TaskEnded(String taskId, String shuffleId) implements WorkerCommand {
    }

    /** Local only: this node is an Up member of the cluster. */
    record SelfIsUp() implements WorkerCommand {
    }

    /** Local only: a node joined the cluster (its status Joining); if it is this one, it may register. */
    record MemberJoined(org.apache.pekko.cluster.UniqueAddress member) implements WorkerCommand {
    }

    /** Local only: the receptionist's current coordinators. */
    record CoordinatorsChanged(Set<ActorRef<CoordinatorCommand>> coordinators) implements WorkerCommand {
    }

    /** How long a task waits for the coordinator to say where its input blocks are. */
    private static final java.time.Duration MAP_OUTPUTS_TIMEOUT = java.time.Duration.ofSeconds(30);

    private final RegisterWorker registration;
    /** The cluster address of the one coordinator this worker serves. */
    private final String coordinatorAddress;
    private final TaskRunner runner;
    private final ExecutorService slots;
    private final ShuffleServer shuffleServer;
    private final ShuffleClient shuffleClient;
    private final CompletableFuture<String> registered;
    private ActorRef<CoordinatorCommand> coordinator;
    /** The coordinator's token for this worker's registration; null until acknowledged. */
    private String session;
    /** Cancel flags of the tasks queued or running here, by task id. */
    private final Map<String, AtomicBoolean> cancelFlags = new HashMap<>();
    /** Shuffles already deleted, so that a late task's output is deleted too (the newest kept). */
    private final LinkedHashSet<String> removedShuffles = new LinkedHashSet<>();
    private static final int REMEMBERED_REMOVALS = 10_000;
    /** Tasks cancelled before they arrived (at most {@link #REMEMBERED_REMOVALS}, the oldest forgotten first). */
    private final LinkedHashSet<String> cancelledBeforeArrival = new LinkedHashSet<>();

    static Behavior<WorkerCommand> create(WorkerSettings settings, int shufflePort, TaskRunner runner,
            ExecutorService slots, ShuffleServer shuffleServer, ShuffleClient shuffleClient,
            CompletableFuture<String> registered) {
        return Behaviors.setup(context -> {
            ActorRef<Receptionist.Listing> listings = context.messageAdapter(Receptionist.Listing.class,
                    listing -> new CoordinatorsChanged(listing.getServiceInstances(ServiceKeys.COORDINATOR)));
            context.getSystem().receptionist().tell(Receptionist.subscribe(ServiceKeys.COORDINATOR, listings));
            LargeMessages.openRelay(context);
            ActorRef<ClusterEvent.MemberRemoved> removals = context.messageAdapter(ClusterEvent.MemberRemoved.class,
                    event -> new MemberLeft(event.member()));
            Cluster.get(context.getSystem()).subscriptions().tell(Subscribe.create(removals, ClusterEvent.MemberRemoved.class));
            ActorRef<SelfUp> up = context.messageAdapter(SelfUp.class, event -> new SelfIsUp());
            Cluster.get(context.getSystem()).subscriptions().tell(Subscribe.create(up, SelfUp.class));
            ActorRef<ClusterEvent.MemberJoined> joined = context.messageAdapter(ClusterEvent.MemberJoined.class,
                    event -> new MemberJoined(event.member().uniqueAddress()));
            Cluster.get(context.getSystem()).subscriptions().tell(Subscribe.create(joined, ClusterEvent.MemberJoined.class));
            RegisterWorker registration = new RegisterWorker(settings.workerId(), context.getSelf(), settings.host(),
                    shufflePort, settings.slots(),
                    Cluster.get(context.getSystem()).selfMember().uniqueAddress().longUid());
            return new WorkerActor(context, registration, settings.coordinatorAddress(), runner, slots, shuffleServer,
                    shuffleClient, registered);
        });
    }

    private WorkerActor(ActorContext<WorkerCommand> context, RegisterWorker registration, String coordinatorAddress,
            TaskRunner runner, ExecutorService slots, ShuffleServer shuffleServer, ShuffleClient shuffleClient,
            CompletableFuture<String> registered) {
        super(context);
        this.coordinatorAddress = coordinatorAddress;
        this.shuffleClient = shuffleClient;
        this.registration = registration;
        this.runner = runner;
        this.slots = slots;
        this.shuffleServer = shuffleServer;
        this.registered = registered;
    }

    @Override
    public Receive<WorkerCommand> createReceive() {
        return newReceiveBuilder()
                .onMessage(SelfIsUp.class, msg -> registerWithConfiguredCoordinator())
                .onMessage(MemberJoined.class, this::onMemberJoined)
                .onMessage(CoordinatorsChanged.class, this::onCoordinators)
                .onMessage(WorkerRegistered.class, this::onRegistered)
                .onMessage(RunTask.class, this::onRunTask)
                .onMessage(CancelTask.class, this::onCancelTask)
                .onMessage(RemoveShuffles.class, this::onRemoveShuffles)
                .onMessage(ShuffleServerLost.class, this::onShuffleServerLost)
                .onMessage(ShuffleServerJoined.class, this::onShuffleServerJoined)
                .onMessage(MemberLeft.class, this::onMemberLeft)
                .onMessage(TaskEnded.class, this::onTaskEnded)
                .build();
    }

    /**
     * Registers with the coordinator this worker was started with, the first time it appears: the
     * one at the configured address. Any other node that offers itself as a coordinator, even one
     * holding the secret, is ignored, and so is a second one at that address (the worker stops when
     * its coordinator leaves), so no node can take a worker over.
     */
    private Behavior<WorkerCommand> onCoordinators(CoordinatorsChanged msg) {
        for (ActorRef<CoordinatorCommand> c : msg.coordinators()) {
            if (c.equals(coordinator)) {
                continue;
            }
            if (coordinator != null && coordinator.path().uid() == 0 && c.path().equals(coordinator.path())) {
                coordinator = c; // the one registered with on Up, named by its path: now its listed reference
                continue;
            }
            String address = c.path().address().toString();
            if (coordinator == null && address.equals(coordinatorAddress)) {
                coordinator = c;
                c.tell(registration);
            } else {
                getContext().getLog().warn("ignoring a coordinator at {}: this worker serves {} only", address,
                        coordinator != null ? coordinator.path().address() : coordinatorAddress);
            }
        }
        return this;
    }

    /**
     * This node joined once the coordinator welcomed it, so the coordinator can reach it (both
     * directions of the connection are up): it registers then rather than when it is Up, which
     * takes the leader's next actions after gossip has converged and then gossip back to this node
     * (a second to several on a loaded machine, when a worker that became leader must first connect
     * to the other joining workers). Tasks need only the coordinator to reach this worker, and a
     * Joining member is watched by heartbeats as an Up one is: one that dies is downed and removed.
     */
    private Behavior<WorkerCommand> onMemberJoined(MemberJoined msg) {
        if (msg.member().equals(Cluster.get(getContext().getSystem()).selfMember().uniqueAddress())) {
            return registerWithConfiguredCoordinator();
        }
        return this;
    }

    /**
     * Registers with the coordinator at the configured address, whose actor is its system's
     * guardian, without waiting for the receptionist's registry to reach this node by gossip (a
     * few hundred milliseconds after it is Up). The coordinator's answer goes to this worker's
     * actor, so a wrong address only means no answer, and the receptionist path stays.
     */
    private Behavior<WorkerCommand> registerWithConfiguredCoordinator() {
        if (coordinator == null) {
            coordinator = ActorRefResolver.get(getContext().getSystem()).resolveActorRef(coordinatorAddress + "/user");
            coordinator.tell(registration);
        }
        return this;
    }

    private Behavior<WorkerCommand> onRegistered(WorkerRegistered msg) {
        session = msg.session();
        registered.complete(msg.coordinatorId());
        return this;
    }

    /**
     * Whether a command comes from the coordinator this worker registered with: it carries that
     * registration's token (compared in constant time). Anything else is dropped and logged.
     */
    private boolean fromCoordinator(String token, Object command) {
        if (session != null && token != null && MessageDigest.isEqual(session.getBytes(StandardCharsets.UTF_8),
                token.getBytes(StandardCharsets.UTF_8))) {
            return true;
        }
        getContext().getLog().warn("ignoring a {} that does not carry this worker's registration",
                command.getClass().getSimpleName());
        return false;
    }

    private Behavior<WorkerCommand> onRunTask(RunTask msg) {
        if (!fromCoordinator(msg.session(), msg) || !msg.replyTo().equals(coordinator)) {
            return this;
        }
        ActorRef<CoordinatorCommand> replyTo = msg.replyTo();
        String token = session;
        ActorRef<WorkerCommand> self = getContext().getSelf();
        String taskId = msg.task().taskId();
        getContext().getLog().info("running task {} (job {}, stage {}, partition {}, attempt {})", taskId,
                msg.task().jobId(), msg.task().stageId(), msg.task().partition(), msg.task().attempt());
        AtomicBoolean cancelled = new AtomicBoolean(cancelledBeforeArrival.remove(taskId));
        cancelFlags.put(taskId, cancelled);
        MapOutputLocator locator = new SentMapOutputs(msg.mapOutputs(), askCoordinator(replyTo, registration.workerId(),
                token, getContext().getSystem().scheduler()));
        ActorSystem<Void> system = getContext().getSystem();
        slots.execute(() -> {
            String shuffleId = null;
            try {
                TaskRunner.Outcome outcome = runner.run(msg.task(), cancelled::get, locator);
                shuffleId = outcome.shuffleId();
                try {
                    LargeMessages.tell(replyTo, outcome.finished().withSession(token), system);
                } catch (IllegalArgumentException tooLarge) {
                    // a report no message can carry (a runtime filter past the limit): the task fails, saying so
                    LargeMessages.tell(replyTo, TaskFinished.failed(taskId, registration.workerId(),
                            "the task's report cannot be sent: " + tooLarge.getMessage(), true).withSession(token),
                            system);
                }
            } finally {
                self.tell(new TaskEnded(taskId, shuffleId));
            }
        });
        return this;
    }

    /**
     * Map output locations the task was not sent come from the coordinator that sent the task, one
     * partition's column at a time; the request carries this worker's registration token.
     */
    private static MapOutputLocator askCoordinator(ActorRef<CoordinatorCommand> coordinator, String workerId,
            String token, org.apache.pekko.actor.typed.Scheduler scheduler) {
        return (jobId, shuffleId, partition) -> {
            MapOutputs answer;
            try {
                answer = AskPattern.<CoordinatorCommand, MapOutputs>ask(coordinator,
                        replyTo -> new GetMapOutputs(jobId, shuffleId, partition, replyTo, workerId, token),
                        MAP_OUTPUTS_TIMEOUT, scheduler)
                        .toCompletableFuture().get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while asking for the map outputs of " + shuffleId);
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException("the coordinator did not tell the map outputs of " + shuffleId + ": "
                        + e.getCause(), e.getCause());
            }
            if (answer.error() != null) {
                throw new IllegalStateException(answer.error());
            }
            return answer.blocks();
        };
    }

    /** A task still queued or running here stops at its next batch; an unknown one has ended already. */
    private Behavior<WorkerCommand> onCancelTask(CancelTask msg) {
        if (!fromCoordinator(msg.session(), msg)) {
            return this;
        }
        AtomicBoolean flag = cancelFlags.get(msg.taskId());
        if (flag != null) {
            flag.set(true);
        } else {
            // a task sent in parts reaches this actor through the relay, so its cancel may come first
            remember(cancelledBeforeArrival, msg.taskId());
        }
        return this;
    }

    /** Without its coordinator a worker can do nothing: it stops, and its launcher exits. */
    private Behavior<WorkerCommand> onMemberLeft(MemberLeft msg) {
        // Leaving by its own status; a worker still Joining (or WeaklyUp) may already run tasks
        // (it registers on the coordinator's Welcome) and must stop with its coordinator too.
        MemberStatus self = Cluster.get(getContext().getSystem()).selfMember().status();
        boolean selfLeaving = self == MemberStatus.leaving() || self == MemberStatus.exiting()
                || self == MemberStatus.down() || self == MemberStatus.removed();
        if (msg.member().hasRole(NodeRole.COORDINATOR.roleName()) && !selfLeaving) {
            getContext().getLog().warn("the coordinator at {} left the cluster; stopping this worker", msg.member().address());
            getContext().getSystem().terminate();
        }
        return this;
    }

    /** A task of a job already cleaned up (cancelled, still running then) deletes what it wrote. */
    private Behavior<WorkerCommand> onTaskEnded(TaskEnded msg) {
        cancelFlags.remove(msg.taskId());
        if (msg.shuffleId() != null && removedShuffles.contains(msg.shuffleId())) {
            remove(msg.shuffleId());
        }
        return this;
    }

    /** Adds {@code id} to {@code ids}, forgetting the oldest beyond {@link #REMEMBERED_REMOVALS}. */
    private static void remember(LinkedHashSet<String> ids, String id) {
        ids.add(id);
        if (ids.size() > REMEMBERED_REMOVALS) {
            ids.remove(ids.iterator().next());
        }
    }

    private Behavior<WorkerCommand> onRemoveShuffles(RemoveShuffles msg) {
        if (!fromCoordinator(msg.session(), msg)) {
            return this;
        }
        // the job ended: the broadcast joins' tables its stages shared here are freed (or once their last task is done)
        runner.sharedBuilds().stagesEnded(msg.shuffleIds());
        for (String id : msg.shuffleIds()) {
            remember(removedShuffles, id);
            remove(id);
        }
        return this;
    }

    /** A worker on an address lost before: reads from it are allowed again. */
    private Behavior<WorkerCommand> onShuffleServerJoined(ShuffleServerJoined msg) {
        if (fromCoordinator(msg.session(), msg)) {
            shuffleClient.serverJoined(msg.host(), msg.port());
        }
        return this;
    }

    /** Reads from a worker that left fail now, not after the shuffle I/O timeout; the job then recomputes. */
    private Behavior<WorkerCommand> onShuffleServerLost(ShuffleServerLost msg) {
        if (fromCoordinator(msg.session(), msg)) {
            getContext().getLog().info("the shuffle server at {}:{} is lost; giving up reads from it", msg.host(), msg.port());
            shuffleClient.serverLost(msg.host(), msg.port());
        }
        return this;
    }

    private void remove(String id) {
        try {
            shuffleServer.removeShuffle(id);
        } catch (RuntimeException e) {
            getContext().getLog().warn("could not remove shuffle {}: {}", id, e.toString());
        }
    }
}
