package io.sluice.coordinator;

import io.sluice.cluster.LargeMessages;
import io.sluice.cluster.protocol.CancelTask;
import io.sluice.cluster.protocol.CoordinatorCommand;
import io.sluice.cluster.protocol.GetMapOutputs;
import io.sluice.cluster.protocol.MapOutputColumn;
import io.sluice.cluster.protocol.MapOutputs;
import io.sluice.cluster.protocol.RegisterWorker;
import io.sluice.cluster.protocol.RunTask;
import io.sluice.cluster.protocol.ServiceKeys;
import io.sluice.cluster.protocol.TaskDescription;
import io.sluice.cluster.protocol.TaskFinished;
import io.sluice.cluster.protocol.TaskMetrics;
import io.sluice.cluster.protocol.WorkerRegistered;
import io.sluice.common.SluiceException;
import io.sluice.coordinator.monitor.EventBus;
import io.sluice.coordinator.monitor.MonitorViews;
import io.sluice.coordinator.scheduler.AttemptsExhaustedException;
import io.sluice.coordinator.scheduler.FetchFailedException;
import io.sluice.coordinator.scheduler.MapOutputTracker;
import io.sluice.coordinator.scheduler.ShuffleReads;
import io.sluice.operators.MapStatus;
import io.sluice.operators.OperatorMetrics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.Cancellable;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * The coordinator's task dispatcher: hands queued tasks to the free slots of the registered
 * workers ({@link WorkerMembership}) spreading them over workers, a task whose input lies on some
 * hosts on a worker there if one frees soon enough ({@link TaskPlacement}), and completes each task's future
 * when its worker reports back. A task goes out with the block locations the {@link MapOutputTracker}
 * knows for the shuffle partitions it is expected to read; a reading task's question where other
 * blocks are is answered by the tracker too. A failed attempt, one past {@link SchedulerSettings#taskTimeout()}, and the
 * running attempts of a worker that leaves or becomes unreachable are queued again, up to
 * {@link SchedulerSettings#taskMaxAttempts()} attempts, on another worker where one has a free
 * slot; a worker whose attempts keep failing is excluded for a while ({@link ExcludeList}). All
 * state is confined to the actor.
 */
public final class CoordinatorActor extends AbstractBehavior<CoordinatorCommand> {
    static final String NO_WORKERS = "no workers have joined the cluster: start one with "
            + "'sluice worker --coordinator HOST:PORT'";
    /** Why queries fail once the coordinator's own node is downed, leaves, or its actor system stops. */
    static final String NODE_STOPPED =
            "the coordinator's cluster node stopped (it was shut down or removed from the cluster; see its log)";

    /**
     * Local only: run a task and complete {@code result}, on a worker on one of {@code preferredHosts}
     * if it can; the locations of {@code reads} known when it is dispatched go with it.
     */
    record LaunchTask(TaskDescription task, CompletableFuture<MapStatus> result,
            java.util.function.Consumer<OperatorMetrics> metrics, List<String> preferredHosts, ShuffleReads reads)
            implements CoordinatorCommand {
        LaunchTask {
            preferredHosts = List.copyOf(preferredHosts);
            java.util.Objects.requireNonNull(reads, "reads is null");
        }

        LaunchTask(TaskDescription task, CompletableFuture<MapStatus> result,
                java.util.function.Consumer<OperatorMetrics> metrics, List<String> preferredHosts) {
            this(task, result, metrics, preferredHosts, ShuffleReads.NONE);
        }

        LaunchTask(TaskDescription task, CompletableFuture<MapStatus> result,
                java.util.function.Consumer<OperatorMetrics> metrics) {
            this(task, result, metrics, List.of());
        }
    }

    /** Local only: a task waiting for a slot on its hosts may have waited long enough. */
    private record LocalityWaitOver() implements CoordinatorCommand {
    }

    /** Local only: the launch of this task was cancelled; a worker running it is told to stop. */
    record CancelLaunch(String taskId) implements CoordinatorCommand {
    }

    /** Local only: the cluster member at this address, of this incarnation (uid), was removed. */
    record MemberGone(Address address, long uid) implements CoordinatorCommand {
    }

    /** Local only: the member at this address and uid became unreachable (true) or reachable again (false). */
    record Reachability(Address address, long uid, boolean unreachable) implements CoordinatorCommand {
    }

    /** Local only: ask every worker to delete these shuffles' files. */
    record BroadcastRemove(List<String> shuffleIds) implements CoordinatorCommand {
    }

    /** Local only: how many workers, slots and tasks the dispatcher has now. */
    record GetLoad(CompletableFuture<ClusterLoad> reply) implements CoordinatorCommand {
    }

    /** Local only: this attempt has run past the task timeout. */
    record AttemptTimedOut(String attemptId) implements CoordinatorCommand {
    }

    /** Local only: the registered workers' ids and total slots. */
    record GetWorkers(CompletableFuture<Map<String, Integer>> reply) implements CoordinatorCommand {
    }

    /** Local only: the workers as the monitoring API shows them. */
    record GetWorkerViews(CompletableFuture<List<MonitorViews.WorkerView>> reply) implements CoordinatorCommand {
    }

    /**
     * Local only: complete {@code reply} once no attempt of this job's tasks is running or waiting
     * to run (a failed write removes its files only then, so no late task writes after it).
     */
    record AwaitJobIdle(String jobId, CompletableFuture<Void> reply) implements CoordinatorCommand {
    }

    /** A task waiting for a slot: its next attempt's number, the workers its attempts failed on, when it was first queued. */
    record Pending(LaunchTask launch, int attempt, Set<String> failedOn, long queuedAt) {
        Pending next(String failedWorker) {
            Set<String> workers = new HashSet<>(failedOn);
            if (failedWorker != null) {
                workers.add(failedWorker);
            }
            return new Pending(launch, attempt + 1, workers, queuedAt);
        }
    }

    /** An attempt running on a worker, and its timeout (null when attempts are not timed out). */
    private record Running(Pending pending, String workerId, Cancellable timeout) {
    }

    private final String coordinatorId;
    private final WorkerMembership workers;
    private final TaskQueue<Pending> queue;
    private final Map<String, Running> running = new HashMap<>();
    private final List<AwaitJobIdle> idleWaiters = new ArrayList<>();
    private final java.util.function.BiConsumer<String, TaskMetrics> taskMetrics;
    private final SchedulerSettings settings;
    private final ExcludeList excludes;
    private final MapOutputTracker tracker;
    private final SlotAssigner slots;
    private final TaskEvents taskEvents;
    /** When the scheduled {@link LocalityWaitOver} fires; {@code Long.MAX_VALUE} when none is. */
    private long localityWakeAt = Long.MAX_VALUE;

    public static Behavior<CoordinatorCommand> create(String coordinatorId) {
        return create(coordinatorId, SchedulerSettings.defaults(), new MapOutputTracker(), (jobId, metrics) -> { },
                (host, port) -> { });
    }

    /**
     * {@code taskMetrics} is told each finished task's job and metrics (when the worker sent them);
     * {@code serverLost} the shuffle server address of each worker removed from the cluster.
     */
    public static Behavior<CoordinatorCommand> create(String coordinatorId, SchedulerSettings settings,
            MapOutputTracker tracker, java.util.function.BiConsumer<String, TaskMetrics> taskMetrics,
            java.util.function.BiConsumer<String, Integer> serverLost) {
        return create(coordinatorId, settings, tracker, taskMetrics, serverLost, (host, port) -> { });
    }

    /** The same; {@code serverJoined} is told the shuffle server address of each worker that registers. */
    public static Behavior<CoordinatorCommand> create(String coordinatorId, SchedulerSettings settings,
            MapOutputTracker tracker, java.util.function.BiConsumer<String, TaskMetrics> taskMetrics,
            java.util.function.BiConsumer<String, Integer> serverLost,
            java.util.function.BiConsumer<String, Integer> serverJoined) {
        return create(coordinatorId, settings, tracker, taskMetrics, serverLost, serverJoined, EventBus.NONE);
    }

    /** The same; {@code events} is told each attempt's start and end (the monitoring API). */
    public static Behavior<CoordinatorCommand> create(String coordinatorId, SchedulerSettings settings,
            MapOutputTracker tracker, java.util.function.BiConsumer<String, TaskMetrics> taskMetrics,
            java.util.function.BiConsumer<String, Integer> serverLost,
            java.util.function.BiConsumer<String, Integer> serverJoined, EventBus events) {
        return Behaviors.setup(context -> {
            context.getSystem().receptionist().tell(Receptionist.register(ServiceKeys.COORDINATOR, context.getSelf()));
            LargeMessages.openRelay(context);
            ActorRef<ClusterEvent.MemberRemoved> members = context.messageAdapter(ClusterEvent.MemberRemoved.class,
                    event -> new MemberGone(event.member().address(), event.member().uniqueAddress().longUid()));
            ActorRef<ClusterEvent.UnreachableMember> unreachable = context.messageAdapter(
                    ClusterEvent.UnreachableMember.class, event -> new Reachability(event.member().address(),
                            event.member().uniqueAddress().longUid(), true));
            ActorRef<ClusterEvent.ReachableMember> reachable = context.messageAdapter(
                    ClusterEvent.ReachableMember.class, event -> new Reachability(event.member().address(),
                            event.member().uniqueAddress().longUid(), false));
            Cluster cluster = Cluster.get(context.getSystem());
            cluster.subscriptions().tell(Subscribe.create(members, ClusterEvent.MemberRemoved.class));
            cluster.subscriptions().tell(Subscribe.create(unreachable, ClusterEvent.UnreachableMember.class));
            cluster.subscriptions().tell(Subscribe.create(reachable, ClusterEvent.ReachableMember.class));
            return new CoordinatorActor(context, coordinatorId, settings, tracker, taskMetrics, serverLost, serverJoined,
                    new TaskEvents(events));
        });
    }

    private CoordinatorActor(ActorContext<CoordinatorCommand> context, String coordinatorId, SchedulerSettings settings,
            MapOutputTracker tracker, java.util.function.BiConsumer<String, TaskMetrics> taskMetrics,
            java.util.function.BiConsumer<String, Integer> serverLost,
            java.util.function.BiConsumer<String, Integer> serverJoined, TaskEvents taskEvents) {
        super(context);
        this.taskEvents = taskEvents;
        this.tracker = tracker;
        this.workers = new WorkerMembership(serverLost, serverJoined);
        this.coordinatorId = coordinatorId;
        this.taskMetrics = taskMetrics;
        this.settings = settings;
        this.excludes = new ExcludeList(settings.excludeMaxFailures(), settings.excludeTimeout().toMillis());
        this.queue = new TaskQueue<>(settings.mode(), p -> p.launch().task().jobId());
        this.slots = new SlotAssigner(new TaskPlacement(settings.localityWait()));
    }

    @Override
    public Receive<CoordinatorCommand> createReceive() {
        return newReceiveBuilder()
                .onMessage(RegisterWorker.class, this::onRegister)
                .onMessage(LaunchTask.class, this::onLaunch)
                .onMessage(TaskFinished.class, this::onFinished)
                .onMessage(CancelLaunch.class, this::onCancelLaunch)
                .onMessage(AttemptTimedOut.class, this::onTimedOut)
                .onMessage(GetMapOutputs.class, this::onGetMapOutputs)
                .onMessage(MemberGone.class, this::onMemberGone)
                .onMessage(Reachability.class, this::onReachability)
                .onMessage(BroadcastRemove.class, this::onBroadcastRemove)
                .onMessage(GetWorkers.class, this::onGetWorkers)
                .onMessage(GetLoad.class, this::onGetLoad)
                .onMessage(GetWorkerViews.class, msg -> reply(msg.reply(), workers.views(tracker.bytesByServer())))
                .onMessage(LocalityWaitOver.class, msg -> {
                    localityWakeAt = Long.MAX_VALUE;
                    dispatch();
                    return this;
                })
                .onMessage(AwaitJobIdle.class, msg -> {
                    idleWaiters.add(msg);
                    answerIdleWaiters();
                    return this;
                })
                .build();
    }

    private Behavior<CoordinatorCommand> onRegister(RegisterWorker msg) {
        if (!workers.isRegistered(msg)) {
            RegisteredWorker old = workers.get(msg.workerId());
            if (old != null) {
                getContext().getLog().info("worker {} is a new incarnation (uid {}, was {}); re-running the old one's {} tasks",
                        msg.workerId(), msg.incarnation(), old.incarnation, old.running().size());
                excludes.forget(old.id());
                requeueRunning(old);
            }
            workers.register(msg);
            getContext().getLog().info("worker {} registered with {} slots (shuffle {}:{})", msg.workerId(), msg.slots(),
                    msg.shuffleHost(), msg.shufflePort());
        }
        msg.worker().tell(new WorkerRegistered(coordinatorId, workers.get(msg.workerId()).session));
        dispatch();
        return this;
    }

    private Behavior<CoordinatorCommand> onLaunch(LaunchTask msg) {
        if (workers.isEmpty()) {
            // fail fast: a query must not wait silently for a worker that may never come (a downed
            // coordinator, which saw every worker removed, names that instead)
            msg.result().completeExceptionally(new SluiceException(selfLeaving() ? NODE_STOPPED : NO_WORKERS));
            return this;
        }
        queue.add(new Pending(msg, msg.task().attempt(), Set.of(), now()));
        dispatch();
        return this;
    }

    private Behavior<CoordinatorCommand> onFinished(TaskFinished msg) {
        RegisteredWorker worker = workers.get(msg.workerId());
        if (worker == null || !worker.running().containsKey(msg.taskId()) || !worker.holdsSession(msg.session())) {
            // Only the worker a task was sent to may report it, with its registration's token.
            getContext().getLog().warn("ignoring a report of task {} claiming worker {}: not the worker it was sent to "
                    + "or not its session", msg.taskId(), msg.workerId());
            return this;
        }
        worker.running().remove(msg.taskId());
        worker.heard(msg.workerMemory());
        Running attempt = running.remove(msg.taskId());
        if (attempt == null) {
            dispatch(); // a late report from an attempt given up on (timed out): its slot is free now
            return this;
        }
        queue.ended(attempt.pending().launch().task().jobId());
        if (attempt.timeout() != null) {
            attempt.timeout().cancel();
        }
        Pending pending = attempt.pending();
        if (msg.metrics() != null) {
            taskMetrics.accept(pending.launch().task().jobId(), msg.metrics());
        }
        CompletableFuture<MapStatus> result = pending.launch().result();
        taskEvents.ended(pending.launch().task().asAttempt(pending.attempt()), worker,
                result.isDone() ? "KILLED" : msg.error() == null ? "FINISHED" : "FAILED", msg.metrics(), msg.error(),
                msg.fetchFailure() != null);
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
            if (!msg.memoryFull()) {
                failedOn(msg.workerId()); // a worker whose memory other tasks filled is loaded, not faulty
            }
            retry(pending, msg.workerId(), msg.error());
        }
        dispatch();
        return this;
    }

    /**
     * An attempt past the task timeout is given up: its worker is told to stop it, it counts as a
     * failure of that worker, and the task runs again. Its slot stays taken until the worker
     * reports the attempt ended, so a task that cannot be stopped never over-books its worker.
     */
    private Behavior<CoordinatorCommand> onTimedOut(AttemptTimedOut msg) {
        Running attempt = running.remove(msg.attemptId());
        if (attempt == null) {
            return this;
        }
        queue.ended(attempt.pending().launch().task().jobId());
        RegisteredWorker worker = workers.get(attempt.workerId());
        if (worker != null) {
            worker.ref().tell(new CancelTask(msg.attemptId(), worker.session));
        }
        String reason = "attempt " + msg.attemptId() + " timed out after " + settings.taskTimeout().toMillis()
                + " ms on " + attempt.workerId() + " (sluice.task.timeout)";
        getContext().getLog().warn(reason);
        taskEvents.ended(attempt.pending().launch().task().asAttempt(attempt.pending().attempt()), worker, "FAILED", null,
                reason, false);
        if (!attempt.pending().launch().result().isDone()) {
            failedOn(attempt.workerId());
            retry(attempt.pending(), attempt.workerId(), reason);
        }
        dispatch();
        return this;
    }

    /** A task asks where the blocks of the partition it reads live. */
    private Behavior<CoordinatorCommand> onGetMapOutputs(GetMapOutputs msg) {
        RegisteredWorker worker = workers.get(msg.workerId());
        if (worker == null || !worker.holdsSession(msg.session())) {
            getContext().getLog().warn("ignoring a map output request claiming worker {}: not a registered worker "
                    + "or not its session", msg.workerId());
            return this;
        }
        try {
            LargeMessages.tell(msg.replyTo(), tracker.answer(msg.jobId(), msg.shuffleId(), msg.partition()),
                    getContext().getSystem());
        } catch (IllegalArgumentException e) {
            msg.replyTo().tell(MapOutputs.failed("the map outputs of " + msg.shuffleId() + " cannot be sent: "
                    + e.getMessage()));
        }
        return this;
    }

    /** Counts a failed attempt against its worker, which may exclude it. */
    private void failedOn(String workerId) {
        if (excludes.recordFailure(workerId, now())) {
            getContext().getLog().warn("worker {} excluded for {} s: {} failed attempts (sluice.exclude.max-failures)",
                    workerId, settings.excludeTimeout().toSeconds(), settings.excludeMaxFailures());
        }
    }

    private static long now() {
        return System.nanoTime() / 1_000_000;
    }

    /**
     * Stops the cancelled task's running attempts. Their slots stay taken until the worker reports
     * the attempt ended, so the slot count never over-books a worker. Queued attempts are skipped
     * when dispatched.
     */
    private Behavior<CoordinatorCommand> onCancelLaunch(CancelLaunch msg) {
        for (RegisteredWorker worker : workers.all()) {
            for (String attempt : worker.running().keySet()) {
                Running run = running.get(attempt);
                if (run != null && run.pending().launch().task().taskId().equals(msg.taskId())) {
                    worker.ref().tell(new CancelTask(attempt, worker.session));
                }
            }
        }
        return this;
    }

    private Behavior<CoordinatorCommand> onMemberGone(MemberGone msg) {
        for (RegisteredWorker w : workers.members(msg.address(), msg.uid())) {
            if (w.running().isEmpty()) {
                getContext().getLog().info("worker {} at {} left", w.id(), msg.address());
            } else {
                getContext().getLog().warn("worker {} at {} is gone; re-running its {} tasks", w.id(), msg.address(),
                        w.running().size());
            }
            excludes.forget(w.id());
            requeueRunning(w);
            workers.remove(w);
        }
        if (workers.isEmpty() && !queue.isEmpty()) {
            // a downed coordinator sees every other member removed: the workers did not leave, it did
            String cause = selfLeaving() ? NODE_STOPPED : "every worker left the cluster while the query ran; " + NO_WORKERS;
            getContext().getLog().warn("failing {} queued tasks: {}", queue.size(), cause);
            for (Pending pending : queue.drain()) {
                pending.launch().result().completeExceptionally(new SluiceException(cause));
            }
        }
        dispatch();
        return this;
    }

    /** Whether this node itself is leaving the cluster (downed, leaving, exiting or removed). */
    private boolean selfLeaving() {
        MemberStatus status = Cluster.get(getContext().getSystem()).selfMember().status();
        return status != MemberStatus.up() && status != MemberStatus.joining() && status != MemberStatus.weaklyUp();
    }

    /**
     * An unreachable worker's running tasks run elsewhere and it gets no new ones; if it becomes
     * reachable again (a long GC pause, a network blip) it is used again; if it is downed, the
     * removal drops it.
     */
    private Behavior<CoordinatorCommand> onReachability(Reachability msg) {
        for (RegisteredWorker w : workers.members(msg.address(), msg.uid())) {
            w.reachable = !msg.unreachable();
            if (msg.unreachable()) {
                getContext().getLog().warn("worker {} is unreachable; re-running its {} tasks elsewhere", w.id(),
                        w.running().size());
                requeueRunning(w);
            } else {
                getContext().getLog().info("worker {} is reachable again", w.id());
            }
        }
        dispatch();
        return this;
    }

    private void requeueRunning(RegisteredWorker worker) {
        for (String taskId : worker.running().keySet()) {
            Running run = running.remove(taskId);
            if (run != null) {
                queue.ended(run.pending().launch().task().jobId());
                if (run.timeout() != null) {
                    run.timeout().cancel();
                }
                String reason = "worker " + worker.id() + " was lost";
                taskEvents.ended(run.pending().launch().task().asAttempt(run.pending().attempt()), worker, "FAILED", null,
                        reason, false);
                retry(run.pending(), worker.id(), reason);
            }
        }
        worker.running().clear();
    }

    /** Queues the task's next attempt first in line, or fails it once it has had its attempts. */
    private void retry(Pending pending, String failedWorker, String reason) {
        Pending next = pending.next(failedWorker);
        if (next.attempt() >= settings.taskMaxAttempts()) {
            pending.launch().result().completeExceptionally(new AttemptsExhaustedException("task " + pending.launch().task().taskId()
                    + " failed " + settings.taskMaxAttempts() + " times (sluice.task.max-attempts); last error: " + reason));
        } else {
            queue.addFirst(next);
        }
    }

    private Behavior<CoordinatorCommand> onBroadcastRemove(BroadcastRemove msg) {
        workers.removeShuffles(msg.shuffleIds(), getContext().getSystem());
        return this;
    }

    private Behavior<CoordinatorCommand> onGetLoad(GetLoad msg) {
        msg.reply().complete(workers.load(running.size(), queue.size(), excludes.excluded(now())));
        return this;
    }

    private <T> Behavior<CoordinatorCommand> reply(CompletableFuture<T> reply, T value) {
        reply.complete(value);
        return this;
    }

    private Behavior<CoordinatorCommand> onGetWorkers(GetWorkers msg) {
        msg.reply().complete(workers.slotsById());
        return this;
    }

    /**
     * Answers the {@link AwaitJobIdle} waiters whose job has no attempt holding a slot (an attempt
     * given up on still counts until its worker reports it ended) and no live task queued.
     */
    private void answerIdleWaiters() {
        if (idleWaiters.isEmpty()) {
            return;
        }
        Set<String> busy = new HashSet<>();
        workers.all().forEach(w -> busy.addAll(w.running().values()));
        queue.forEach(p -> {
            if (!p.launch().result().isDone()) {
                busy.add(p.launch().task().jobId());
            }
        });
        idleWaiters.removeIf(w -> {
            if (busy.contains(w.jobId())) {
                return false;
            }
            w.reply().complete(null);
            return true;
        });
    }

    /**
     * Gives queued tasks to free slots ({@link SlotAssigner}); when a task passed over for its hosts
     * stops waiting for them, the dispatcher looks again.
     */
    private void dispatch() {
        answerIdleWaiters();
        if (queue.isEmpty() || workers.isEmpty()) {
            return;
        }
        long now = now();
        SlotAssigner.Round round = slots.round(new ArrayList<>(workers.all()), excludes, now);
        for (SlotAssigner.Assignment next = round.next(queue); next != null; next = round.next(queue)) {
            if (next.worker() != null) {
                start(next.task(), next.worker());
            }
        }
        if (round.wakeAt() < localityWakeAt) {
            localityWakeAt = round.wakeAt();
            getContext().scheduleOnce(java.time.Duration.ofMillis(localityWakeAt - now), getContext().getSelf(),
                    new LocalityWaitOver());
        }
    }

    private void start(Pending pending, RegisteredWorker worker) {
        TaskDescription task = pending.launch().task().asAttempt(pending.attempt());
        Cancellable timeout = settings.hasTaskTimeout()
                ? getContext().scheduleOnce(settings.taskTimeout(), getContext().getSelf(), new AttemptTimedOut(task.taskId()))
                : null;
        running.put(task.taskId(), new Running(pending, worker.id(), timeout));
        queue.started(task.jobId());
        worker.running().put(task.taskId(), task.jobId());
        taskEvents.started(task, worker);
        // the locations its readers would ask for, as the tracker knows them now (after any recomputation)
        List<MapOutputColumn> known = tracker.columns(task.jobId(), pending.launch().reads());
        try {
            LargeMessages.tell(worker.ref(), new RunTask(task, getContext().getSelf(), worker.session, known),
                    getContext().getSystem());
        } catch (IllegalArgumentException e) {
            // a task no message can carry: it fails as if the worker had reported so (the user's to fix)
            getContext().getSelf().tell(TaskFinished.failed(task.taskId(), worker.id(), "task " + task.taskId()
                    + " cannot be sent: " + e.getMessage(), true).withSession(worker.session));
        }
    }
}
