package io.sluice.plan.physical;

import static java.util.Objects.requireNonNull;

/**
 * A task could not read map output {@code map} of shuffle {@code shuffleId} from the shuffle
 * server at {@code host:port}: the output is lost (its worker died) and must be recomputed from
 * the stage that wrote it; retrying the reading task alone would fail again.
 */
public record FetchFailure(String shuffleId, int map, String host, int port) {
    public FetchFailure {
        requireNonNull(shuffleId, "shuffleId is null");
        requireNonNull(host, "host is null");
    }
}
