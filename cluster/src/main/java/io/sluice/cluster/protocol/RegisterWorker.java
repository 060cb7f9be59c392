package io.sluice.cluster.protocol;

import static java.util.Objects.requireNonNull;

import org.apache.pekko.actor.typed.ActorRef;

/**
 * A worker announces itself to the coordinator: where to send it tasks, where its shuffle server
 * listens (map outputs it writes are fetched from there) and how many tasks it runs at once. The
 * coordinator answers {@link WorkerRegistered}; a worker re-sends this until it gets that answer.
 */
public record RegisterWorker(String workerId, ActorRef<WorkerCommand> worker, String shuffleHost, int shufflePort,
                             int slots) implements CoordinatorCommand {
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
