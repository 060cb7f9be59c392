package io.sluice.operators;

import static java.util.Objects.requireNonNull;

/**
 * A task could not read map output {@code map} of shuffle {@code shuffleId} from the shuffle
 * server at {@code host:port}: the output must be recomputed from the stage that wrote it;
 * retrying the reading task alone would fail again. With {@code serverLost} the server itself
 * failed (its worker died), so every output it held is lost; without, only this output is (it was
 * missing, truncated or failed its checksum).
 */
public record FetchFailure(String shuffleId, int map, String host, int port, boolean serverLost) {
    public FetchFailure {
        requireNonNull(shuffleId, "shuffleId is null");
        requireNonNull(host, "host is null");
    }

    /** A failure that loses the whole server. */
    public FetchFailure(String shuffleId, int map, String host, int port) {
        this(shuffleId, map, host, port, true);
    }
}
