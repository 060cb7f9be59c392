package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

/** One block to read, {@code (shuffleId, map, partition)}, and the shuffle server that holds it. */
record BlockLocation(String host, int port, String shuffleId, int map, int partition) {
    BlockLocation {
        requireNonNull(host, "host is null");
        requireNonNull(shuffleId, "shuffleId is null");
        if (map < 0 || partition < 0) {
            throw new IllegalArgumentException("negative map " + map + " or partition " + partition);
        }
    }

    String describe() {
        return ShuffleBlocks.describe(shuffleId, map, partition);
    }

    /** The server answered, but the output is missing, corrupt or stale: recompute this map output. */
    ShuffleFetchException failure(String reason, Throwable cause) {
        return new ShuffleFetchException(host, port, shuffleId, map, partition, reason, cause, false);
    }

    /** The server could not be reached or dropped the connection: every output it held may be gone. */
    ShuffleFetchException serverLost(String reason, Throwable cause) {
        return new ShuffleFetchException(host, port, shuffleId, map, partition, reason, cause, true);
    }
}
