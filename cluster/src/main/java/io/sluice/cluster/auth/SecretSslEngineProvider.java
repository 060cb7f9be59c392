package io.sluice.cluster.auth;

import javax.net.ssl.KeyManager;
import javax.net.ssl.TrustManager;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.remote.artery.tcp.ConfigSSLEngineProvider;

/**
 * Pekko's TLS engine provider for Artery, with this node's {@link ArteryCredentials} instead of
 * key store files. The credentials' handle sits beside Pekko's own settings, at
 * {@code pekko.remote.artery.ssl.config-ssl-engine.sluice-credentials}; protocol (TLS 1.3), cipher
 * suites and mutual authentication are Pekko's {@code config-ssl-engine} settings, which {@code
 * NodeConfig} fixes.
 */
public final class SecretSslEngineProvider extends ConfigSSLEngineProvider {
    /** The key, inside {@code config-ssl-engine}, of the credentials' handle. */
    public static final String HANDLE_KEY = "sluice-credentials";

    public SecretSslEngineProvider(ActorSystem system) {
        super(system);
    }

    @Override
    public KeyManager[] keyManagers() {
        return credentials().keyManagers();
    }

    @Override
    public TrustManager[] trustManagers() {
        return credentials().trustManagers();
    }

    private ArteryCredentials credentials() {
        return ArteryCredentials.lookup(config().getString(HANDLE_KEY));
    }
}
