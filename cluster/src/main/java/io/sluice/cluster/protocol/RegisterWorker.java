package io.sluice.cluster.protocol;

import static java.util.Objects.requireNonNull;

import org.apache.pekko.actor.typed.ActorRef;

/**
 * A worker announces itself to the coordinator: where to send it tasks, where its shuffle server
 * listens (map outputs it writes are fetched from there) and how many tasks it runs at once. The
 * coordinator answers {@link WorkerRegistered}; a worker re-sends this until it gets that answer.
 * {@code incarnation} is the worker's cluster identity (its member's unique address uid; 0 when
 * unknown): a worker restarted on the same address is a new incarnation, and news about the old
 * one (its removal) must not touch the new one.
 */
public record RegisterWorker(String workerId, ActorRef<WorkerCommand> worker, String shuffleHost, int shufflePort,
                             int slots, long incarnation) implements CoordinatorCommand {
    public RegisterWorker(String workerId, ActorRef<WorkerCommand> worker, String shuffleHost, int shufflePort, int slots) {
        this(workerId, worker, shuffleHost, shufflePort, slots, 0);
    }

    public RegisterWorker {
        Checks.nonBlank(workerId, "workerId");
        requireNonNull(worker, "worker is null");
        Checks.nonBlank(shuffleHost, "shuffleHost");
        if (shufflePort <= 0 || shufflePort > 65535) {
            throw new IllegalArgumentException("bad shuffle port " + shufflePort);
        }
        if (slots <= 0) {
            throw new IllegalArgumentException("a worker needs at least one slot, not " + slots);
        }
    }
}
