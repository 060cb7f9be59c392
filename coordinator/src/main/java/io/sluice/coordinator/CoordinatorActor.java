package io.sluice.coordinator;

import io.sluice.cluster.protocol.CancelTask;
import io.sluice.cluster.protocol.CoordinatorCommand;
import io.sluice.cluster.protocol.RegisterWorker;
import io.sluice.cluster.protocol.RemoveShuffles;
import io.sluice.cluster.protocol.RunTask;
import io.sluice.cluster.protocol.ServiceKeys;
import io.sluice.cluster.protocol.TaskDescription;
import io.sluice.cluster.protocol.TaskFinished;
import io.sluice.cluster.protocol.TaskMetrics;
import io.sluice.cluster.protocol.WorkerCommand;
import io.sluice.plan.physical.OperatorMetrics;
import io.sluice.cluster.protocol.WorkerRegistered;
import io.sluice.coordinator.scheduler.FetchFailedException;
import io.sluice.coordinator.scheduler.TaskFailedException;
import io.sluice.plan.SluiceException;
import io.sluice.plan.physical.MapStatus;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * The coordinator's task dispatcher: tracks registered workers and their free slots, hands queued
 * tasks to free slots spreading them over workers, and completes each task's future when its
 * worker reports back. A worker that leaves or becomes unreachable is dropped and its running
 * tasks are queued again, up to {@link #MAX_ATTEMPTS} attempts. All state is confined to the actor.
 */
public final class CoordinatorActor extends AbstractBehavior<CoordinatorCommand> {
    static final int MAX_ATTEMPTS = 4;
    static final String NO_WORKERS = "no workers have joined the cluster: start one with "
            + "'sluice worker --coordinator HOST:PORT'";

    /** Local only: run a task and complete {@code result}. */
    record LaunchTask(TaskDescription task, CompletableFuture<MapStatus> result,
            java.util.function.Consumer<OperatorMetrics> metrics) implements CoordinatorCommand {
    }

    /** Local only: the launch of this task was cancelled; a worker running it is told to stop. */
    record CancelLaunch(String taskId) implements CoordinatorCommand {
    }

    /** Local only: the cluster member at this address was removed. */
    record MemberGone(Address address) implements CoordinatorCommand {
    }

    /** Local only: the member at this address became unreachable (true) or reachable again (false). */
    record Reachability(Address address, boolean unreachable) implements CoordinatorCommand {
    }

    /** Local only: ask every worker to delete these shuffles' files. */
    record BroadcastRemove(List<String> shuffleIds) implements CoordinatorCommand {
    }

    /** Local only: how many workers, slots and tasks the dispatcher has now. */
    record GetLoad(CompletableFuture<ClusterLoad> reply) implements CoordinatorCommand {
    }

    /** Local only: the registered workers' ids and total slots. */
    record GetWorkers(CompletableFuture<Map<String, Integer>> reply) implements CoordinatorCommand {
    }

    /**
     * Local only: complete {@code reply} once no attempt of this job's tasks is running or waiting
     * to run (a failed write removes its files only then, so no late task writes after it).
     */
    record AwaitJobIdle(String jobId, CompletableFuture<Void> reply) implements CoordinatorCommand {
    }

    /** A registered worker; an unreachable one gets no tasks until it is reachable again or removed. */
    private static final class WorkerState {
        final String id;
        final ActorRef<WorkerCommand> ref;
        final int slots;
        /** This registration's token: commands carry it, and reports must return it. */
        final String session;
        final Set<String> running = new HashSet<>();
        boolean reachable = true;

        WorkerState(String id, ActorRef<WorkerCommand> ref, int slots, String session) {
            this.id = id;
            this.ref = ref;
            this.slots = slots;
            this.session = session;
        }

        String id() {
            return id;
        }

        ActorRef<WorkerCommand> ref() {
            return ref;
        }

        int slots() {
            return slots;
        }

        Set<String> running() {
            return running;
        }
    }

    private record Pending(LaunchTask launch, int attempt) {
    }

    private final String coordinatorId;
    private final Map<String, WorkerState> workers = new LinkedHashMap<>();
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private final Map<String, Pending> running = new LinkedHashMap<>();
    private int nextWorker;
    private final List<AwaitJobIdle> idleWaiters = new ArrayList<>();
    private final java.util.function.BiConsumer<String, TaskMetrics> taskMetrics;

    public static Behavior<CoordinatorCommand> create(String coordinatorId) {
        return create(coordinatorId, (jobId, metrics) -> { });
    }

    /** {@code taskMetrics} is told each finished task's job and metrics (when the worker sent them). */
    public static Behavior<CoordinatorCommand> create(String coordinatorId,
            java.util.function.BiConsumer<String, TaskMetrics> taskMetrics) {
        return Behaviors.setup(context -> {
            context.getSystem().receptionist().tell(Receptionist.register(ServiceKeys.COORDINATOR, context.getSelf()));
            ActorRef<ClusterEvent.MemberRemoved> members = context.messageAdapter(ClusterEvent.MemberRemoved.class,
                    event -> new MemberGone(event.member().address()));
            ActorRef<ClusterEvent.UnreachableMember> unreachable = context.messageAdapter(
                    ClusterEvent.UnreachableMember.class, event -> new Reachability(event.member().address(), true));
            ActorRef<ClusterEvent.ReachableMember> reachable = context.messageAdapter(
                    ClusterEvent.ReachableMember.class, event -> new Reachability(event.member().address(), false));
            Cluster cluster = Cluster.get(context.getSystem());
            cluster.subscriptions().tell(Subscribe.create(members, ClusterEvent.MemberRemoved.class));
            cluster.subscriptions().tell(Subscribe.create(unreachable, ClusterEvent.UnreachableMember.class));
            cluster.subscriptions().tell(Subscribe.create(reachable, ClusterEvent.ReachableMember.class));
            return new CoordinatorActor(context, coordinatorId, taskMetrics);
        });
    }

    private CoordinatorActor(ActorContext<CoordinatorCommand> context, String coordinatorId,
            java.util.function.BiConsumer<String, TaskMetrics> taskMetrics) {
        super(context);
        this.coordinatorId = coordinatorId;
        this.taskMetrics = taskMetrics;
    }

    @Override
    public Receive<CoordinatorCommand> createReceive() {
        return newReceiveBuilder()
                .onMessage(RegisterWorker.class, this::onRegister)
                .onMessage(LaunchTask.class, this::onLaunch)
                .onMessage(TaskFinished.class, this::onFinished)
                .onMessage(CancelLaunch.class, this::onCancelLaunch)
                .onMessage(MemberGone.class, this::onMemberGone)
                .onMessage(Reachability.class, this::onReachability)
                .onMessage(BroadcastRemove.class, this::onBroadcastRemove)
                .onMessage(GetWorkers.class, this::onGetWorkers)
                .onMessage(GetLoad.class, this::onGetLoad)
                .onMessage(AwaitJobIdle.class, msg -> {
                    idleWaiters.add(msg);
                    answerIdleWaiters();
                    return this;
                })
                .build();
    }

    private Behavior<CoordinatorCommand> onRegister(RegisterWorker msg) {
        WorkerState old = workers.get(msg.workerId());
        if (old == null || !old.ref().equals(msg.worker())) {
            if (old != null) {
                requeueRunning(old);
            }
            workers.put(msg.workerId(), new WorkerState(msg.workerId(), msg.worker(), msg.slots(), newSession()));
            getContext().getLog().info("worker {} registered with {} slots (shuffle {}:{})", msg.workerId(), msg.slots(),
                    msg.shuffleHost(), msg.shufflePort());
        }
        msg.worker().tell(new WorkerRegistered(coordinatorId, workers.get(msg.workerId()).session));
        dispatch();
        return this;
    }

    private Behavior<CoordinatorCommand> onLaunch(LaunchTask msg) {
        if (workers.isEmpty()) {
            // fail fast: a query must not wait silently for a worker that may never come
            msg.result().completeExceptionally(new SluiceException(NO_WORKERS));
            return this;
        }
        queue.add(new Pending(msg, msg.task().attempt()));
        dispatch();
        return this;
    }

    private Behavior<CoordinatorCommand> onFinished(TaskFinished msg) {
        WorkerState worker = workers.get(msg.workerId());
        if (worker == null || !worker.running().contains(msg.taskId()) || msg.session() == null
                || !MessageDigest.isEqual(msg.session().getBytes(StandardCharsets.UTF_8),
                        worker.session.getBytes(StandardCharsets.UTF_8))) {
            // Only the worker a task was sent to may report it, with its registration's token.
            getContext().getLog().warn("ignoring a report of task {} claiming worker {}: not the worker it was sent to "
                    + "or not its session", msg.taskId(), msg.workerId());
            return this;
        }
        worker.running().remove(msg.taskId());
        Pending pending = running.remove(msg.taskId());
        if (pending == null) {
            return this; // a late report from an attempt that was already given up on
        }
        if (msg.metrics() != null) {
            taskMetrics.accept(pending.launch().task().jobId(), msg.metrics());
        }
        CompletableFuture<MapStatus> result = pending.launch().result();
        if (result.isDone()) {
            // cancelled: whatever the report says, the task is not run again
        } else if (msg.error() == null) {
            if (msg.operatorMetrics() != null) {
                pending.launch().metrics().accept(msg.operatorMetrics());
            }
            result.complete(msg.status());
        } else if (msg.userError()) {
            result.completeExceptionally(new SluiceException(msg.error()));
        } else if (msg.fetchFailure() != null) {
            // Retrying the reader cannot help: the scheduler recomputes the lost map output first.
            result.completeExceptionally(new FetchFailedException(msg.fetchFailure(), msg.error()));
        } else {
            getContext().getLog().warn("task {} failed on {}: {}", msg.taskId(), msg.workerId(), msg.error());
            retry(pending, msg.error());
        }
        dispatch();
        return this;
    }

    /**
     * Stops the cancelled task's running attempts. Their slots stay taken until the worker reports
     * the attempt ended, so the slot count never over-books a worker. Queued attempts are skipped
     * when dispatched.
     */
    private Behavior<CoordinatorCommand> onCancelLaunch(CancelLaunch msg) {
        for (WorkerState worker : workers.values()) {
            for (String attempt : worker.running()) {
                Pending pending = running.get(attempt);
                if (pending != null && pending.launch().task().taskId().equals(msg.taskId())) {
                    worker.ref().tell(new CancelTask(attempt, worker.session));
                }
            }
        }
        return this;
    }

    private Behavior<CoordinatorCommand> onMemberGone(MemberGone msg) {
        List<WorkerState> gone = new ArrayList<>();
        for (WorkerState w : workers.values()) {
            if (w.ref().path().address().equals(msg.address())) {
                gone.add(w);
            }
        }
        for (WorkerState w : gone) {
            if (w.running().isEmpty()) {
                getContext().getLog().info("worker {} at {} left", w.id(), msg.address());
            } else {
                getContext().getLog().warn("worker {} at {} is gone; re-running its {} tasks", w.id(), msg.address(),
                        w.running().size());
            }
            workers.remove(w.id());
            requeueRunning(w);
        }
        if (workers.isEmpty() && !queue.isEmpty()) {
            getContext().getLog().warn("every worker left; failing {} queued tasks", queue.size());
            for (Pending pending : queue) {
                pending.launch().result().completeExceptionally(new SluiceException("every worker left the cluster "
                        + "while the query ran; " + NO_WORKERS));
            }
            queue.clear();
        }
        dispatch();
        return this;
    }

    /**
     * An unreachable worker's running tasks run elsewhere and it gets no new ones; if it becomes
     * reachable again (a long GC pause, a network blip) it is used again; if it is downed, the
     * removal drops it.
     */
    private Behavior<CoordinatorCommand> onReachability(Reachability msg) {
        for (WorkerState w : workers.values()) {
            if (w.ref().path().address().equals(msg.address())) {
                w.reachable = !msg.unreachable();
                if (msg.unreachable()) {
                    getContext().getLog().warn("worker {} is unreachable; re-running its {} tasks elsewhere", w.id(),
                            w.running().size());
                    requeueRunning(w);
                } else {
                    getContext().getLog().info("worker {} is reachable again", w.id());
                }
            }
        }
        dispatch();
        return this;
    }

    private void requeueRunning(WorkerState worker) {
        for (String taskId : worker.running()) {
            Pending pending = running.remove(taskId);
            if (pending != null) {
                retry(pending, "worker " + worker.id() + " was lost");
            }
        }
        worker.running().clear();
    }

    private void retry(Pending pending, String reason) {
        int attempt = pending.attempt() + 1;
        if (attempt >= MAX_ATTEMPTS) {
            pending.launch().result().completeExceptionally(new TaskFailedException("task " + pending.launch().task().taskId()
                    + " failed " + MAX_ATTEMPTS + " times; last error: " + reason));
        } else {
            queue.addFirst(new Pending(pending.launch(), attempt));
        }
    }

    private Behavior<CoordinatorCommand> onBroadcastRemove(BroadcastRemove msg) {
        for (WorkerState w : workers.values()) {
            w.ref().tell(new RemoveShuffles(msg.shuffleIds(), w.session));
        }
        return this;
    }

    private Behavior<CoordinatorCommand> onGetLoad(GetLoad msg) {
        int slots = workers.values().stream().mapToInt(WorkerState::slots).sum();
        msg.reply().complete(new ClusterLoad(workers.size(), slots, running.size(), queue.size()));
        return this;
    }

    private Behavior<CoordinatorCommand> onGetWorkers(GetWorkers msg) {
        Map<String, Integer> out = new LinkedHashMap<>();
        workers.values().forEach(w -> out.put(w.id(), w.slots()));
        msg.reply().complete(out);
        return this;
    }

    private static String newSession() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return java.util.HexFormat.of().formatHex(bytes);
    }

    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

    private void answerIdleWaiters() {
        if (idleWaiters.isEmpty()) {
            return;
        }
        Set<String> busy = new HashSet<>();
        running.values().forEach(p -> busy.add(p.launch().task().jobId()));
        for (Pending p : queue) {
            if (!p.launch().result().isDone()) {
                busy.add(p.launch().task().jobId());
            }
        }
        idleWaiters.removeIf(w -> {
            if (busy.contains(w.jobId())) {
                return false;
            }
            w.reply().complete(null);
            return true;
        });
    }

    /** Gives queued tasks to free slots, starting at a rotating worker so tasks spread out. */
    private void dispatch() {
        answerIdleWaiters();
        List<WorkerState> list = new ArrayList<>(workers.values());
        while (!queue.isEmpty() && !list.isEmpty()) {
            WorkerState chosen = null;
            for (int i = 0; i < list.size(); i++) {
                WorkerState w = list.get((nextWorker + i) % list.size());
                if (w.reachable && w.running().size() < w.slots()) {
                    chosen = w;
                    nextWorker = (nextWorker + i + 1) % list.size();
                    break;
                }
            }
            if (chosen == null) {
                return;
            }
            Pending pending = queue.poll();
            if (pending.launch().result().isDone()) {
                continue; // cancelled
            }
            TaskDescription base = pending.launch().task();
            TaskDescription task = new TaskDescription(base.jobId(), base.taskId() + "-a" + pending.attempt(),
                    base.stageId(), base.partition(), pending.attempt(), base.plan());
            running.put(task.taskId(), pending);
            chosen.running().add(task.taskId());
            chosen.ref().tell(new RunTask(task, getContext().getSelf(), chosen.session));
        }
    }
}
