package io.sluice.cluster.auth;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * One node's TLS identity for Artery, bound to the cluster's shared secret without sending it: the
 * node makes a fresh EC key pair and a self-signed certificate whose common name is
 * HMAC-SHA256(secret, public key). A peer is trusted when its certificate is validly self-signed
 * and its name is that HMAC of its own key: only a holder of the secret can make such a name, and
 * TLS proves the peer holds the matching private key, so a copied certificate is of no use.
 * Both sides check (Pekko's mutual authentication), so a process without the secret can neither
 * join the cluster nor send a message to any node.
 *
 * <p>Pekko makes the SSL engine provider itself, from configuration; the credentials reach it
 * through {@link #register} and a random handle in that configuration, so the secret never enters
 * the actor system's configuration.
 */
public final class ArteryCredentials {
    private static final String PREFIX = "sluice-";
    private static final Map<String, ArteryCredentials> REGISTERED = new ConcurrentHashMap<>();

    private final byte[] secret;
    private final KeyManager[] keyManagers;
    private final X509TrustManager trustManager;

    private ArteryCredentials(String secret) throws GeneralSecurityException {
        this.secret = secret.getBytes(StandardCharsets.UTF_8);
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair keys = generator.generateKeyPair();
        X509Certificate certificate = SelfSignedCertificate.create(keys, commonName(keys.getPublic().getEncoded()),
                System.nanoTime() & Long.MAX_VALUE);
        char[] password = new char[0];
        KeyStore store = KeyStore.getInstance("PKCS12");
        try {
            store.load(null, null);
        } catch (java.io.IOException e) {
            throw new GeneralSecurityException(e);
        }
        store.setKeyEntry("node", keys.getPrivate(), password, new X509Certificate[] {certificate});
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(store, password);
        this.keyManagers = factory.getKeyManagers();
        this.trustManager = new SecretTrust();
    }

    /** Credentials for a node proving {@code secret}; the returned handle names them in configuration. */
    public static String register(String secret) {
        requireNonNull(secret, "secret is null");
        try {
            String handle = UUID.randomUUID().toString();
            REGISTERED.put(handle, new ArteryCredentials(secret));
            return handle;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make TLS credentials for Artery: " + e, e);
        }
    }

    /** Forgets credentials a stopped node no longer needs. */
    public static void unregister(String handle) {
        REGISTERED.remove(handle);
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

    private String commonName(byte[] publicKey) throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret, "HmacSHA256"));
        mac.update("sluice-artery-v1:".getBytes(StandardCharsets.US_ASCII));
        return PREFIX + HexFormat.of().formatHex(mac.doFinal(publicKey));
    }

    /** Trusts exactly the certificates {@link ArteryCredentials} makes with the same secret. */
    private final class SecretTrust implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain);
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
