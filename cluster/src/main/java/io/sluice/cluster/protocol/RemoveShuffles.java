package io.sluice.cluster.protocol;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * Tells a worker that the listed shuffles' map outputs are no longer needed and may be deleted;
 * {@code session}: the worker's registration token ({@link WorkerRegistered}).
 */
public record RemoveShuffles(List<String> shuffleIds, String session) implements WorkerCommand {
    public RemoveShuffles {
        shuffleIds = List.copyOf(requireNonNull(shuffleIds, "shuffleIds is null"));
        Checks.nonBlank(session, "session");
    }
}
