package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.cluster.auth.SelfSignedCertificate;
import io.sluice.common.SluiceException;
import io.sluice.common.net.CertificateFingerprint;
import io.sluice.common.settings.Settings;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * The certificate chain and private key the coordinator's HTTP port serves HTTPS with, so that the
 * bearer secret never crosses the network in clear: read from PEM files ({@code --http-tls-cert},
 * {@code --http-tls-key}) or made at start (self-signed, for the host; clients pin its printed
 * fingerprint).
 */
public final class HttpsCredentials {
    private static final Pattern PRIVATE_KEY = Pattern.compile(
            "-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END PRIVATE KEY-----");

    private final List<X509Certificate> chain;
    private final PrivateKey key;

    public HttpsCredentials(List<X509Certificate> chain, PrivateKey key) {
        this.chain = List.copyOf(requireNonNull(chain, "chain is null"));
        this.key = requireNonNull(key, "key is null");
        if (this.chain.isEmpty()) {
            throw new IllegalArgumentException("a certificate chain needs at least one certificate");
        }
    }

    /**
     * The credentials the node settings ask for ({@link HttpSettingsDeclaration#TLS_CERT},
     * {@link HttpSettingsDeclaration#TLS_KEY}, {@link HttpSettingsDeclaration#TLS_SELF_SIGNED}), or
     * null for plain HTTP.
     */
    static HttpsCredentials configured(String host) {
        String cert = Settings.systemProperty(HttpSettingsDeclaration.TLS_CERT);
        String key = Settings.systemProperty(HttpSettingsDeclaration.TLS_KEY);
        boolean selfSigned = Settings.systemProperty(HttpSettingsDeclaration.TLS_SELF_SIGNED);
        if (cert.isEmpty() != key.isEmpty()) {
            throw new SluiceException("HTTPS needs both " + HttpSettingsDeclaration.TLS_CERT.name() + " and "
                    + HttpSettingsDeclaration.TLS_KEY.name() + " (--http-tls-cert and --http-tls-key)");
        }
        if (!cert.isEmpty() && selfSigned) {
            throw new SluiceException("--http-tls-self-signed and --http-tls-cert exclude each other");
        }
        if (!cert.isEmpty()) {
            return fromPem(Path.of(cert), Path.of(key));
        }
        return selfSigned ? selfSigned(host) : null;
    }

    /** A fresh EC key and a certificate naming {@code host}, valid until 2100. */
    public static HttpsCredentials selfSigned(String host) {
        try {
            KeyPair keys = SelfSignedCertificate.newKeyPair();
            return new HttpsCredentials(List.of(SelfSignedCertificate.forHost(keys, host,
                    System.nanoTime() & Long.MAX_VALUE)), keys.getPrivate());
        } catch (GeneralSecurityException e) {
            throw new SluiceException("cannot make a self-signed certificate for " + host + ": " + e.getMessage(), e);
        }
    }

    /**
     * A certificate chain (PEM, the server's certificate first) and its unencrypted PKCS#8 private
     * key (PEM {@code BEGIN PRIVATE KEY}, RSA or EC); errors name the file.
     */
    public static HttpsCredentials fromPem(Path certificateFile, Path keyFile) {
        List<X509Certificate> chain;
        try {
            chain = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(Files.readAllBytes(certificateFile))).stream()
                    .map(X509Certificate.class::cast).toList();
        } catch (IOException | GeneralSecurityException e) {
            throw new SluiceException("cannot read the HTTPS certificate " + certificateFile + ": " + e.getMessage(), e);
        }
        if (chain.isEmpty()) {
            throw new SluiceException("the HTTPS certificate file " + certificateFile + " holds no certificate");
        }
        return new HttpsCredentials(chain, privateKey(keyFile, chain.get(0).getPublicKey().getAlgorithm()));
    }

    private static PrivateKey privateKey(Path file, String algorithm) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new SluiceException("cannot read the HTTPS private key " + file + ": " + e.getMessage(), e);
        }
        Matcher pem = PRIVATE_KEY.matcher(text);
        if (!pem.find()) {
            throw new SluiceException("the HTTPS private key " + file + " is not a PEM PKCS#8 key (-----BEGIN PRIVATE "
                    + "KEY-----); convert one with: openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8");
        }
        try {
            byte[] der = Base64.getMimeDecoder().decode(pem.group(1));
            return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (IllegalArgumentException | InvalidKeySpecException e) {
            throw new SluiceException("the HTTPS private key " + file + " is not a valid " + algorithm
                    + " PKCS#8 key for the certificate: " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new SluiceException("cannot read the HTTPS private key " + file + ": " + e.getMessage(), e);
        }
    }

    /** The server's certificate (the first of the chain). */
    public X509Certificate certificate() {
        return chain.get(0);
    }

    public PrivateKey key() {
        return key;
    }

    /** The SHA-256 fingerprint of the server's certificate, which a client may pin. */
    public String fingerprint() {
        return CertificateFingerprint.of(certificate());
    }

    /** A TLS server context presenting this chain. */
    SSLContext serverContext() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagers(), null, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new SluiceException("cannot serve HTTPS with the certificate " + certificate().getSubjectX500Principal()
                    + ": " + e.getMessage(), e);
        }
    }

    /** Key managers that present this certificate chain: the HTTPS server's, and Spark Connect's TLS. */
    public KeyManager[] keyManagers() {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            char[] password = new char[0];
            store.setKeyEntry("https", key, password, chain.toArray(new Certificate[0]));
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, password);
            return keys.getKeyManagers();
        } catch (IOException | GeneralSecurityException e) {
            throw new SluiceException("cannot serve HTTPS with the certificate " + certificate().getSubjectX500Principal()
                    + ": " + e.getMessage(), e);
        }
    }
}
