package io.sluice.cli;

import io.sluice.api.Session;
import picocli.CommandLine.Option;

/** {@code --coordinator HOST:HTTP_PORT} of the commands that talk to a running coordinator. */
final class CoordinatorHttpOption {
    @Option(names = "--coordinator", required = true, paramLabel = "HOST:HTTP_PORT", converter = HostPort.Converter.class,
            description = "The coordinator's HTTP address (its secret from SLUICE_AUTH_SECRET).")
    HostPort coordinator;

    Session connect() {
        return Session.connect(coordinator.uriHost(), coordinator.port());
    }
}
