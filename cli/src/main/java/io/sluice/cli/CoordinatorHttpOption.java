package io.sluice.cli;

import io.sluice.api.AuthSecrets;
import io.sluice.api.Session;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code --coordinator HOST:HTTP_PORT} of the commands that talk to a running coordinator. */
final class CoordinatorHttpOption {
    @Option(names = "--coordinator", required = true, paramLabel = "[https://]HOST:HTTP_PORT", converter = HostPort.Converter.class,
            description = "The coordinator's HTTP address (its secret from SLUICE_AUTH_SECRET).")
    HostPort coordinator;

    @Mixin
    HttpTlsClientOptions tls = new HttpTlsClientOptions();

    Session connect() {
        return Session.connect(coordinator.uriHost(), coordinator.port(), AuthSecrets.configured(), tls.tls(coordinator));
    }
}
