package io.sluice.shuffle;

/**
 * A shuffle block could not be fetched: the server was unreachable, timed out, or answered with an
 * error (such as a missing block). The fields name the block so a scheduler can tell which map
 * output to recompute.
 */
public final class ShuffleFetchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String host;
    private final int port;
    private final String shuffleId;
    private final int map;
    private final int partition;

    public ShuffleFetchException(String host, int port, String shuffleId, int map, int partition, String reason,
            Throwable cause) {
        super("cannot fetch shuffle block " + ShuffleBlocks.describe(shuffleId, map, partition) + " from " + host + ":"
                + port + ": " + reason, cause);
        this.host = host;
        this.port = port;
        this.shuffleId = shuffleId;
        this.map = map;
        this.partition = partition;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public String shuffleId() {
        return shuffleId;
    }

    public int map() {
        return map;
    }

    public int partition() {
        return partition;
    }
}
