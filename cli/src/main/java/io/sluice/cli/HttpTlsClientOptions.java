package io.sluice.cli;

import io.sluice.api.ApiSettingsDeclaration;
import io.sluice.api.CoordinatorTls;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** How the commands that talk to a coordinator trust its HTTPS certificate. */
final class HttpTlsClientOptions {
    @Option(names = "--http-tls-fingerprint", paramLabel = "SHA256",
            description = "Speak HTTPS and accept exactly the coordinator certificate with this SHA-256 fingerprint "
                    + "(as 'sluice local --http-tls-self-signed' prints it); the host name is not checked.")
    String fingerprint;

    @Option(names = "--http-tls-ca", paramLabel = "FILE",
            description = "Speak HTTPS and trust the CA or server certificates in this PEM file (host name checked).")
    Path ca;

    /** The trust for {@code coordinator}: null (plain HTTP) unless it is https:// or a TLS option is given. */
    CoordinatorTls tls(HostPort coordinator) {
        return CoordinatorTls.of(fingerprint, ca, coordinator.https());
    }

    /**
     * Points a job's {@code Session.create()} at {@code coordinator} with this trust (client deploy
     * mode): the node settings {@code sluice.master} and {@code sluice.master.tls-*}, which it reads.
     */
    void applyToMaster(HostPort coordinator) {
        CoordinatorTls tls = tls(coordinator); // refuses bad options here, before the job runs
        System.setProperty(ApiSettingsDeclaration.MASTER.name(), (tls != null ? "https://" : "") + coordinator);
        if (fingerprint != null) {
            System.setProperty(ApiSettingsDeclaration.MASTER_TLS_FINGERPRINT.name(), fingerprint);
        }
        if (ca != null) {
            System.setProperty(ApiSettingsDeclaration.MASTER_TLS_CA.name(), ca.toAbsolutePath().toString());
        }
    }
}
