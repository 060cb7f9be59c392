package io.sluice.cluster.auth;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * One node's TLS identities for Artery, bound to the cluster's shared secret without sending it
 * and without letting anyone test a guess of it. Artery's TCP connections carry messages one way,
 * from the node that opened the connection (the TLS client) to the node that accepted it (the TLS
 * server), so only the client must prove the secret:
 *
 * <ul>
 *   <li>As a client, a node presents a certificate of a fresh EC key pair whose common name is
 *       HMAC-SHA256(secret, public key); the server trusts exactly such certificates (only a holder
 *       of the secret can make the name, TLS proves the matching private key, so a copied
 *       certificate is of no use), and a connection without one fails in the handshake, before any
 *       message is read.</li>
 *   <li>As a server, a node presents a certificate of another fresh key pair with a fixed name
 *       ({@value #SERVER_NAME}), which depends on nothing secret: in TLS 1.3 the server's
 *       certificate is sent before the client proves anything, and a name derived from the secret
 *       would let whoever connects once test guesses offline. So whoever connects without the
 *       secret receives nothing that depends on it.</li>
 * </ul>
 *
 * <p>A client sends its certificate only to the addresses it connects to: its configured seed and
 * the members of the cluster, which proved the secret to join. Someone able to stand at one of
 * those addresses would receive that certificate and could test guesses against it; the secret's
 * minimum strength ({@code SecretStrength}, 128 bits) makes that hopeless.
 *
 * <p>Pekko makes the SSL engine provider itself, from configuration; the credentials reach it
 * through {@link #register} and a random handle in that configuration, so the secret never enters
 * the actor system's configuration.
 *
 * <p>The nodes of one JVM that prove the same secret (an embedded cluster) share one set of
 * credentials: one pair of key pairs and certificates, made once, and one {@link SSLContext}, whose
 * session caches let a second connection between two of them resume a TLS 1.3 session instead of
 * signing and verifying certificates again (Artery opens a control and an ordinary stream each way
 * between every two nodes). Sharing moves no trust: each of those nodes holds the secret anyway,
 * a session is only issued after a full handshake in which the client proved the secret, and a
 * node proving another secret has credentials and caches of its own.
 */
public final class ArteryCredentials {
    /** The name of every node's server certificate: the same for every secret. */
    public static final String SERVER_NAME = "sluice-node";
    private static final String PREFIX = "sluice-";
    private static final Map<String, ArteryCredentials> REGISTERED = new ConcurrentHashMap<>();
    /** The credentials of each secret that a registered handle still names. */
    private static final Map<String, ArteryCredentials> BY_SECRET = new HashMap<>();

    private final byte[] secret;
    private final KeyManager[] keyManagers;
    private final X509TrustManager trustManager;
    private final SSLContext sslContext;

    private ArteryCredentials(String secret) throws GeneralSecurityException {
        this.secret = secret.getBytes(StandardCharsets.UTF_8);
        KeyPair clientKeys = SelfSignedCertificate.newKeyPair();
        KeyPair serverKeys = SelfSignedCertificate.newKeyPair();
        X509Certificate client = SelfSignedCertificate.create(clientKeys,
                commonName(clientKeys.getPublic().getEncoded()), System.nanoTime() & Long.MAX_VALUE);
        X509Certificate server = SelfSignedCertificate.create(serverKeys, SERVER_NAME,
                System.nanoTime() & Long.MAX_VALUE);
        this.keyManagers = new KeyManager[] {new RoleKeyManager(clientKeys.getPrivate(), client,
                serverKeys.getPrivate(), server)};
        this.trustManager = new SecretTrust();
        this.sslContext = SSLContext.getInstance("TLSv1.3");
        sslContext.init(keyManagers, new TrustManager[] {trustManager}, new SecureRandom());
    }

    /**
     * Credentials for a node proving {@code secret}, shared with the other nodes of this JVM that
     * prove the same secret; the returned handle, new at each call, names them in configuration.
     */
    public static String register(String secret) {
        requireNonNull(secret, "secret is null");
        synchronized (BY_SECRET) {
            ArteryCredentials credentials = BY_SECRET.get(secret);
            if (credentials == null) {
                try {
                    credentials = new ArteryCredentials(secret);
                } catch (GeneralSecurityException e) {
                    throw new IllegalStateException("cannot make TLS credentials for Artery: " + e, e);
                }
                BY_SECRET.put(secret, credentials);
            }
            String handle = UUID.randomUUID().toString();
            REGISTERED.put(handle, credentials);
            return handle;
        }
    }

    /** Forgets credentials a stopped node no longer needs; the last handle of a secret drops its keys. */
    public static void unregister(String handle) {
        synchronized (BY_SECRET) {
            ArteryCredentials credentials = REGISTERED.remove(handle);
            if (credentials != null && !REGISTERED.containsValue(credentials)) {
                BY_SECRET.values().remove(credentials);
            }
        }
    }

    static ArteryCredentials lookup(String handle) {
        ArteryCredentials credentials = REGISTERED.get(handle);
        if (credentials == null) {
            throw new IllegalStateException("no Artery credentials registered under " + handle);
        }
        return credentials;
    }

    KeyManager[] keyManagers() {
        return keyManagers.clone();
    }

    TrustManager[] trustManagers() {
        return new TrustManager[] {trustManager};
    }

    /** The TLS context of every node sharing these credentials, so they resume each other's sessions. */
    SSLContext sslContext() {
        return sslContext;
    }

    private String commonName(byte[] publicKey) throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret, "HmacSHA256"));
        mac.update("sluice-artery-v1:".getBytes(StandardCharsets.US_ASCII));
        return PREFIX + HexFormat.of().formatHex(mac.doFinal(publicKey));
    }

    /**
     * Trusts as clients exactly the certificates {@link ArteryCredentials} makes with the same
     * secret; as servers, any validly self-signed certificate (a server proves nothing: it only
     * reads what its clients send).
     */
    private final class SecretTrust implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            if (chain == null || chain.length != 1) {
                throw new CertificateException("a Sluice node presents one self-signed certificate");
            }
            try {
                chain[0].verify(chain[0].getPublicKey());
            } catch (GeneralSecurityException e) {
                throw new CertificateException("server certificate is not validly self-signed: " + e.getMessage(), e);
            }
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }

        private void check(X509Certificate[] chain) throws CertificateException {
            if (chain == null || chain.length != 1) {
                throw new CertificateException("a Sluice node presents one self-signed certificate");
            }
            X509Certificate peer = chain[0];
            try {
                peer.verify(peer.getPublicKey());
                String expected = commonName(peer.getPublicKey().getEncoded());
                String actual = null;
                for (Rdn rdn : new LdapName(peer.getSubjectX500Principal().getName()).getRdns()) {
                    if (rdn.getType().equalsIgnoreCase("CN")) {
                        actual = rdn.getValue().toString();
                    }
                }
                if (actual == null || !MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                        actual.getBytes(StandardCharsets.US_ASCII))) {
                    throw new CertificateException("peer does not prove this cluster's secret");
                }
            } catch (CertificateException e) {
                throw e;
            } catch (GeneralSecurityException | javax.naming.InvalidNameException e) {
                throw new CertificateException("peer certificate is not a Sluice node's: " + e.getMessage(), e);
            }
        }
    }
}
