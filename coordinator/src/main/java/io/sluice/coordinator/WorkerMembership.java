package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.cluster.LargeMessages;
import io.sluice.cluster.protocol.RegisterWorker;
import io.sluice.cluster.protocol.RemoveShuffles;
import io.sluice.cluster.protocol.ShuffleServerJoined;
import io.sluice.cluster.protocol.ShuffleServerLost;
import io.sluice.coordinator.monitor.MonitorViews;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The workers registered with the dispatcher, by id, in registration order, and their slots: each
 * registration gets a fresh session token; a worker that leaves takes its shuffle server with it,
 * which the scheduler and the other workers are told, and an address lost before that a worker
 * registers on again serves once more. Confined to the dispatcher actor.
 */
final class WorkerMembership {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerMembership.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Map<String, RegisteredWorker> workers = new LinkedHashMap<>();
    private final BiConsumer<String, Integer> serverLost;
    private final BiConsumer<String, Integer> serverJoined;
    /** Shuffle addresses of workers that left, until a worker registers on one again. */
    private final Set<String> lostShuffleServers = new HashSet<>();

    /** {@code serverLost} and {@code serverJoined} are told the shuffle server address of a worker that left or registered on it again. */
    WorkerMembership(BiConsumer<String, Integer> serverLost, BiConsumer<String, Integer> serverJoined) {
        this.serverLost = requireNonNull(serverLost, "serverLost is null");
        this.serverJoined = requireNonNull(serverJoined, "serverJoined is null");
    }

    /** The worker registered with this id, or null. */
    RegisteredWorker get(String workerId) {
        return workers.get(workerId);
    }

    /** The registered workers, in registration order (a live view). */
    Collection<RegisteredWorker> all() {
        return workers.values();
    }

    boolean isEmpty() {
        return workers.isEmpty();
    }

    /** Whether {@code msg} only repeats the current registration of its worker (same actor, same incarnation). */
    boolean isRegistered(RegisterWorker msg) {
        RegisteredWorker current = workers.get(msg.workerId());
        return current != null && current.ref().equals(msg.worker()) && current.incarnation == msg.incarnation();
    }

    /**
     * Registers the worker under a new session, replacing an earlier registration of its id; if
     * its shuffle address was lost before (a worker restarted in place), the scheduler and the
     * other workers are told it serves again.
     */
    RegisteredWorker register(RegisterWorker msg) {
        RegisteredWorker worker = new RegisteredWorker(msg.workerId(), msg.worker(), msg.slots(), msg.incarnation(),
                msg.shuffleHost(), msg.shufflePort(), newSession());
        workers.put(msg.workerId(), worker);
        if (lostShuffleServers.remove(worker.shuffleServer())) {
            // an address lost before serves again: readers may reach it
            serverJoined.accept(msg.shuffleHost(), msg.shufflePort());
            for (RegisteredWorker other : workers.values()) {
                if (!other.id().equals(msg.workerId())) {
                    other.ref().tell(new ShuffleServerJoined(msg.shuffleHost(), msg.shufflePort(), other.session));
                }
            }
        }
        return worker;
    }

    /** The registered workers that are the cluster member at {@code address} with {@code uid}. */
    List<RegisteredWorker> members(Address address, long uid) {
        List<RegisteredWorker> matching = new ArrayList<>();
        for (RegisteredWorker w : workers.values()) {
            if (w.is(address, uid)) {
                matching.add(w);
            }
        }
        return matching;
    }

    /** Removes a worker that left the cluster; its shuffle server is lost, which the scheduler and the other workers are told. */
    void remove(RegisteredWorker worker) {
        workers.remove(worker.id());
        left.addLast(view(worker, "LOST", null));
        if (left.size() > LEFT_KEPT) {
            left.removeFirst();
        }
        serverLost.accept(worker.shuffleHost, worker.shufflePort);
        lostShuffleServers.add(worker.shuffleServer());
        // a killed worker never closes its connections: readers would wait out their timeouts
        for (RegisteredWorker other : workers.values()) {
            other.ref().tell(new ShuffleServerLost(worker.shuffleHost, worker.shufflePort, other.session));
        }
    }

    /** Asks every worker to delete these shuffles' files. */
    void removeShuffles(List<String> shuffleIds, ActorSystem<?> system) {
        for (RegisteredWorker w : workers.values()) {
            try {
                LargeMessages.tell(w.ref(), new RemoveShuffles(shuffleIds, w.session), system);
            } catch (IllegalArgumentException e) {
                LOG.warn("cannot ask worker {} to delete shuffles: {}", w.id(), e.getMessage());
            }
        }
    }

    /** Workers that left, newest last, kept for the monitoring API. */
    private final java.util.ArrayDeque<MonitorViews.WorkerView> left = new java.util.ArrayDeque<>();
    private static final int LEFT_KEPT = 32;

    /** The workers as the monitoring API shows them: registered ones, then the last ones that left. */
    List<MonitorViews.WorkerView> views(Map<String, Long> shuffleBytesByServer) {
        List<MonitorViews.WorkerView> out = new ArrayList<>();
        workers.values().forEach(w -> out.add(view(w, w.reachable ? "UP" : "UNREACHABLE",
                shuffleBytesByServer.getOrDefault(w.shuffleServer(), 0L))));
        out.addAll(left);
        return out;
    }

    private static MonitorViews.WorkerView view(RegisteredWorker w, String state, Long shuffleBytes) {
        return new MonitorViews.WorkerView(w.id(), w.address(), w.slots(), state.equals("LOST") ? 0 : w.running().size(),
                w.memory == null ? null : w.memory.usedBytes(), w.memory == null ? null : w.memory.limitBytes(),
                shuffleBytes, state, w.lastHeard);
    }

    /** The registered workers' ids and slots. */
    Map<String, Integer> slotsById() {
        Map<String, Integer> out = new LinkedHashMap<>();
        workers.values().forEach(w -> out.put(w.id(), w.slots()));
        return out;
    }

    /**
     * The load now: slots in all, and slots free for a new task (on reachable workers, not held by
     * an attempt), beside the dispatcher's running and queued tasks and excluded workers.
     */
    ClusterLoad load(int runningTasks, int queuedTasks, List<String> excludedWorkers) {
        int slots = workers.values().stream().mapToInt(RegisteredWorker::slots).sum();
        int free = workers.values().stream().filter(w -> w.reachable)
                .mapToInt(w -> Math.max(0, w.slots() - w.running().size())).sum();
        return new ClusterLoad(workers.size(), slots, free, runningTasks, queuedTasks, excludedWorkers);
    }

    private static String newSession() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
