package io.sluice.cluster.protocol;

import static java.util.Objects.requireNonNull;

/**
 * Tells a worker that the worker serving shuffle files at {@code host:port} left the cluster, so
 * its reads from there fail at once instead of waiting out a timeout (a killed machine or
 * container never closes its connections); {@code session}: the worker's registration token
 * ({@link WorkerRegistered}).
 */
public record ShuffleServerLost(String host, int port, String session) implements WorkerCommand {
    public ShuffleServerLost {
        requireNonNull(host, "host is null");
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("bad port " + port);
        }
        Checks.nonBlank(session, "session");
    }
}
