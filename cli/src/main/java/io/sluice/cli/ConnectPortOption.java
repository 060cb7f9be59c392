package io.sluice.cli;

import io.sluice.connect.ConnectServer;
import io.sluice.coordinator.Coordinator;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** {@code --connect-port} of the commands that run a coordinator: its Spark Connect endpoint (docs/spark-connect.md). */
final class ConnectPortOption {
    @Option(names = "--connect-port", defaultValue = "15002", paramLabel = "PORT",
            description = "Spark Connect port for Spark's own clients (sc://HOST:PORT/;token=SECRET), bound to the "
                    + "coordinator's host; 0 turns it off (default: ${DEFAULT-VALUE}).")
    int port;

    /** Starts the endpoint unless turned off; null when off. The port is checked first. */
    ConnectServer start(CommandSpec spec, Coordinator coordinator, String host, String secret) {
        Options.port(spec, "--connect-port", port);
        if (port == 0) {
            return null;
        }
        ConnectServer server = ConnectServer.start(coordinator, host, port, secret);
        spec.commandLine().getErr().println("Spark Connect ready: sc://" + host + ":" + server.port()
                + (secret == null ? "" : "/;token=$" + io.sluice.api.Session.AUTH_SECRET_VARIABLE));
        return server;
    }

    /** Closes the endpoint, then the node it serves. */
    static AutoCloseable withNode(ConnectServer server, AutoCloseable node) {
        return () -> {
            try {
                if (server != null) {
                    server.close();
                }
            } finally {
                node.close();
            }
        };
    }
}
