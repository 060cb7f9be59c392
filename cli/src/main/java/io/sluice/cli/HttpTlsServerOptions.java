package io.sluice.cli;

import io.sluice.coordinator.HttpSettingsDeclaration;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code --http-tls-cert/--http-tls-key} and {@code --http-tls-self-signed} of the commands that
 * serve HTTP (a coordinator, {@code sluice history}): HTTPS on that port, so that the secret never crosses the network in clear
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
    static String describe(String host, int port, Optional<String> httpsFingerprint) {
        HostPort address = new HostPort(host, port);
        return httpsFingerprint.map(f -> "https " + address + ", certificate sha256 " + f).orElse("http " + address);
    }
}
