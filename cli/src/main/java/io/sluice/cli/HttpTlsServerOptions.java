package io.sluice.cli;

import io.sluice.coordinator.Coordinator;
import io.sluice.coordinator.HttpSettingsDeclaration;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --http-tls-cert/--http-tls-key} and {@code --http-tls-self-signed} of the commands that run
 * a coordinator: HTTPS on its HTTP port, so that the secret never crosses the network in clear
 * (docs/security.md).
 */
final class HttpTlsServerOptions {
    @Option(names = "--http-tls-cert", paramLabel = "FILE",
            description = "Serve HTTPS with this PEM certificate chain (the server's first); needs --http-tls-key.")
    Path certificate;

    @Option(names = "--http-tls-key", paramLabel = "FILE",
            description = "The PEM PKCS#8 private key (RSA or EC, unencrypted) of --http-tls-cert.")
    Path key;

    @Option(names = "--http-tls-self-signed",
            description = "Serve HTTPS with a certificate made at start; its SHA-256 fingerprint is printed for "
                    + "clients' --http-tls-fingerprint.")
    boolean selfSigned;

    /** Sets the node settings the coordinator reads, over --conf and the configuration file. */
    void apply() {
        if (certificate != null) {
            System.setProperty(HttpSettingsDeclaration.TLS_CERT.name(), certificate.toAbsolutePath().toString());
        }
        if (key != null) {
            System.setProperty(HttpSettingsDeclaration.TLS_KEY.name(), key.toAbsolutePath().toString());
        }
        if (selfSigned) {
            System.setProperty(HttpSettingsDeclaration.TLS_SELF_SIGNED.name(), "true");
        }
    }

    /** How the ready line names the HTTP port: {@code http HOST:PORT}, or {@code https HOST:PORT, certificate sha256 ...}. */
    static String describe(Coordinator coordinator, String host) {
        HostPort address = new HostPort(host, coordinator.httpPort());
        return coordinator.httpsFingerprint().map(f -> "https " + address + ", certificate sha256 " + f)
                .orElse("http " + address);
    }
}
