package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.net.CertificateFingerprint;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * How a client trusts a coordinator that serves HTTPS: the JDK's default trust (a certificate from
 * a public or company CA the JVM trusts, host name checked), a CA or certificate file (host name
 * checked), or a pinned SHA-256 fingerprint (exactly that certificate, as {@code sluice local
 * --http-tls-self-signed} prints it; host name not checked, since the pin names the certificate).
 */
public final class CoordinatorTls {
    private final String fingerprint;
    private final Path trusted;

    private CoordinatorTls(String fingerprint, Path trusted) {
        this.fingerprint = fingerprint;
        this.trusted = trusted;
    }

    /**
     * The trust a client's options ask for: a pinned {@code fingerprint}, the {@code trusted}
     * certificates file, or (neither given) the JVM's default trust when the address said {@code
     * https://}; null, plain HTTP, otherwise. Giving both a pin and a file is an error.
     */
    public static CoordinatorTls of(String fingerprint, Path trusted, boolean https) {
        if (fingerprint != null && trusted != null) {
            throw new SluiceException("give --http-tls-fingerprint or --http-tls-ca, not both");
        }
        if (fingerprint != null) {
            return pinned(fingerprint);
        }
        if (trusted != null) {
            return trusting(trusted);
        }
        return https ? defaultTrust() : null;
    }

    /** HTTPS trusting what the JVM trusts. */
    public static CoordinatorTls defaultTrust() {
        return new CoordinatorTls(null, null);
    }

    /** HTTPS accepting exactly the certificate with this SHA-256 fingerprint (hex, colons optional). */
    public static CoordinatorTls pinned(String fingerprint) {
        try {
            return new CoordinatorTls(CertificateFingerprint.parse(requireNonNull(fingerprint, "fingerprint is null")), null);
        } catch (IllegalArgumentException e) {
            throw new SluiceException(e.getMessage());
        }
    }

    /** HTTPS trusting the certificates (a CA's, or the server's own) in this PEM file. */
    public static CoordinatorTls trusting(Path certificates) {
        return new CoordinatorTls(null, requireNonNull(certificates, "certificates is null"));
    }

    /** {@code builder}, set to make its connections with this trust. */
    HttpClient.Builder configure(HttpClient.Builder builder) {
        if (fingerprint == null && trusted == null) {
            return builder;
        }
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, fingerprint != null ? new TrustManager[] {new PinnedTrust(fingerprint)}
                    : trustManagers(trusted), null);
            return builder.sslContext(context);
        } catch (GeneralSecurityException e) {
            throw new SluiceException("cannot set up HTTPS: " + e.getMessage(), e);
        }
    }

    private static TrustManager[] trustManagers(Path file) throws GeneralSecurityException {
        Collection<? extends Certificate> certificates;
        try (InputStream in = Files.newInputStream(file)) {
            certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
        } catch (IOException | CertificateException e) {
            throw new SluiceException("cannot read the trusted certificates " + file + ": " + e.getMessage(), e);
        }
        if (certificates.isEmpty()) {
            throw new SluiceException("the trusted certificates file " + file + " holds no certificate");
        }
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        try {
            store.load(null, null);
        } catch (IOException e) {
            throw new GeneralSecurityException(e);
        }
        int i = 0;
        for (Certificate certificate : certificates) {
            store.setCertificateEntry("trusted-" + i++, certificate);
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(store);
        return factory.getTrustManagers();
    }

    @Override
    public String toString() {
        return fingerprint != null ? "pinned " + fingerprint : trusted != null ? "trusting " + trusted : "default trust";
    }

    /** Trusts one server certificate, named by its fingerprint; as an extended manager it skips the host name check. */
    private static final class PinnedTrust extends X509ExtendedTrustManager {
        private final String expected;

        PinnedTrust(String expected) {
            this.expected = expected;
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            if (chain == null || chain.length == 0) {
                throw new CertificateException("the coordinator presented no certificate");
            }
            String seen = CertificateFingerprint.of(chain[0]);
            if (!seen.equals(expected)) {
                throw new CertificateException("the coordinator's certificate has SHA-256 fingerprint " + seen
                        + ", not the expected " + expected + " (--http-tls-fingerprint)");
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            checkServerTrusted(chain, authType);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            checkServerTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("a client trusts no client certificates");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            checkClientTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            checkClientTrusted(chain, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
