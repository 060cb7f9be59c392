package io.sluice.cluster.protocol;

import static java.util.Objects.requireNonNull;

/**
 * Tells a worker that a worker serving shuffle files at {@code host:port} joined the cluster, so
 * reads from that address, refused since an earlier worker there was lost
 * ({@link ShuffleServerLost}), reach the new one; {@code session}: the worker's registration token
 * ({@link WorkerRegistered}).
 */
public record ShuffleServerJoined(String host, int port, String session) implements WorkerCommand {
    public ShuffleServerJoined {
        requireNonNull(host, "host is null");
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("bad port " + port);
        }
        Checks.nonBlank(session, "session");
    }
}
