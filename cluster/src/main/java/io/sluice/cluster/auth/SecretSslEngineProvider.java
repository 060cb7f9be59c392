package io.sluice.cluster.auth;

import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.remote.artery.tcp.ConfigSSLEngineProvider;

/**
 * Pekko's TLS engine provider for Artery, with this node's {@link ArteryCredentials} instead of
 * key store files. The credentials' handle sits beside Pekko's own settings, at
 * {@code pekko.remote.artery.ssl.config-ssl-engine.sluice-credentials}; protocol (TLS 1.3), cipher
 * suites and mutual authentication are Pekko's {@code config-ssl-engine} settings, which {@code
 * NodeConfig} fixes, applied to each engine as Pekko's provider does. Engines come from the
 * credentials' one TLS context rather than a context per node, so the nodes of one JVM resume each
 * other's TLS sessions.
 */
public final class SecretSslEngineProvider extends ConfigSSLEngineProvider {
    /** The key, inside {@code config-ssl-engine}, of the credentials' handle. */
    public static final String HANDLE_KEY = "sluice-credentials";

    private final String[] protocols;
    private final String[] cipherSuites;
    private final boolean mutualAuthentication;
    private final boolean hostnameVerification;

    public SecretSslEngineProvider(ActorSystem system) {
        super(system);
        this.protocols = new String[] {config().getString("protocol")};
        List<String> suites = config().getStringList("enabled-algorithms");
        this.cipherSuites = suites.toArray(String[]::new);
        this.mutualAuthentication = config().getBoolean("require-mutual-authentication");
        this.hostnameVerification = config().getBoolean("hostname-verification");
    }

    @Override
    public KeyManager[] keyManagers() {
        return credentials().keyManagers();
    }

    @Override
    public TrustManager[] trustManagers() {
        return credentials().trustManagers();
    }

    @Override
    public SSLEngine createServerSSLEngine(String hostname, int port) {
        SSLEngine engine = credentials().sslContext().createSSLEngine(hostname, port);
        engine.setUseClientMode(false);
        configure(engine);
        engine.setNeedClientAuth(mutualAuthentication);
        return engine;
    }

    @Override
    public SSLEngine createClientSSLEngine(String hostname, int port) {
        SSLEngine engine = credentials().sslContext().createSSLEngine(hostname, port);
        if (hostnameVerification) {
            SSLParameters parameters = engine.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            engine.setSSLParameters(parameters);
        }
        engine.setUseClientMode(true);
        configure(engine);
        return engine;
    }

    private void configure(SSLEngine engine) {
        engine.setEnabledCipherSuites(cipherSuites);
        engine.setEnabledProtocols(protocols);
    }

    private ArteryCredentials credentials() {
        return ArteryCredentials.lookup(config().getString(HANDLE_KEY));
    }
}
