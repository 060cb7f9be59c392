package io.sluice.cli;

import io.sluice.api.CoordinatorTls;
import io.sluice.common.SluiceException;
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
        if (fingerprint != null && ca != null) {
            throw new SluiceException("give --http-tls-fingerprint or --http-tls-ca, not both");
        }
        if (fingerprint != null) {
            return CoordinatorTls.pinned(fingerprint);
        }
        if (ca != null) {
            return CoordinatorTls.trusting(ca);
        }
        return coordinator.https() ? CoordinatorTls.defaultTrust() : null;
    }
}
