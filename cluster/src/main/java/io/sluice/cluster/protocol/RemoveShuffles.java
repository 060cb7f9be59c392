package io.sluice.cluster.protocol;

import static java.util.Objects.requireNonNull;

import java.util.List;

/** Tells a worker that the listed shuffles' map outputs are no longer needed and may be deleted. */
public record RemoveShuffles(List<String> shuffleIds) implements WorkerCommand {
    public RemoveShuffles {
        shuffleIds = List.copyOf(requireNonNull(shuffleIds, "shuffleIds is null"));
    }
}
