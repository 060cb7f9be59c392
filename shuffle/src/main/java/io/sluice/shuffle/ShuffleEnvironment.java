package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

/**
 * The per-worker shuffle service that tasks look up with
 * {@code context.service(ShuffleEnvironment.class)}: where map output is written
 * ({@code localDirectory}, the root its {@link ShuffleServer} serves), the address other workers
 * fetch it from ({@code host:port}), and the client this worker fetches with. The worker owns the
 * server and client and closes them; the environment is only a handle.
 */
public record ShuffleEnvironment(String workerId, String host, int port, Path localDirectory, ShuffleClient client) {
    public ShuffleEnvironment {
        requireNonNull(workerId, "workerId is null");
        requireNonNull(host, "host is null");
        requireNonNull(localDirectory, "localDirectory is null");
        requireNonNull(client, "client is null");
        if (workerId.isEmpty()) {
            throw new IllegalArgumentException("workerId is empty");
        }
        if (host.isEmpty()) {
            throw new IllegalArgumentException("host is empty");
        }
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("bad port " + port);
        }
    }
}
