package io.sluice.cluster.auth;

import static java.util.Objects.requireNonNull;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * Presents one certificate when the node is the TLS client and another when it is the server
 * ({@link ArteryCredentials}: the client's proves the secret, the server's depends on nothing secret).
 */
final class RoleKeyManager extends X509ExtendedKeyManager {
    private static final String CLIENT = "client";
    private static final String SERVER = "server";

    private final PrivateKey clientKey;
    private final X509Certificate clientCertificate;
    private final PrivateKey serverKey;
    private final X509Certificate serverCertificate;

    RoleKeyManager(PrivateKey clientKey, X509Certificate clientCertificate, PrivateKey serverKey,
            X509Certificate serverCertificate) {
        this.clientKey = requireNonNull(clientKey, "clientKey is null");
        this.clientCertificate = requireNonNull(clientCertificate, "clientCertificate is null");
        this.serverKey = requireNonNull(serverKey, "serverKey is null");
        this.serverCertificate = requireNonNull(serverCertificate, "serverCertificate is null");
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return new String[] {CLIENT};
    }

    @Override
    public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
        return CLIENT;
    }

    @Override
    public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers, SSLEngine engine) {
        return CLIENT;
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return new String[] {SERVER};
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return "EC".equals(keyType) ? SERVER : null;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return "EC".equals(keyType) ? SERVER : null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return switch (alias) {
            case CLIENT -> new X509Certificate[] {clientCertificate};
            case SERVER -> new X509Certificate[] {serverCertificate};
            default -> null;
        };
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return switch (alias) {
            case CLIENT -> clientKey;
            case SERVER -> serverKey;
            default -> null;
        };
    }
}
