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

    ShuffleFetchException failure(String reason, Throwable cause) {
        return new ShuffleFetchException(host, port, shuffleId, map, partition, reason, cause);
    }
}
