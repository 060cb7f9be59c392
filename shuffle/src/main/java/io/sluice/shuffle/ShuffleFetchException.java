package io.sluice.shuffle;

/**
 * A shuffle block could not be read: the server was unreachable, timed out or dropped the
 * connection ({@link #serverLost()}), or the output was missing, truncated, corrupt (checksum) or
 * stale. The fields name the block and server so a scheduler can tell which map outputs to
 * recompute: all of that server's when it is lost, otherwise this one.
 */
public final class ShuffleFetchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String host;
    private final int port;
    private final String shuffleId;
    private final int map;
    private final int partition;
    private final boolean serverLost;

    public ShuffleFetchException(String host, int port, String shuffleId, int map, int partition, String reason,
            Throwable cause, boolean serverLost) {
        super("cannot fetch shuffle block " + ShuffleBlocks.describe(shuffleId, map, partition) + " from " + host + ":"
                + port + ": " + reason, cause);
        this.host = host;
        this.port = port;
        this.shuffleId = shuffleId;
        this.map = map;
        this.partition = partition;
        this.serverLost = serverLost;
    }

    /** Whether the server itself failed (not just this block), so all map outputs it held are suspect. */
    public boolean serverLost() {
        return serverLost;
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
