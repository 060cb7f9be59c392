package io.sluice.cluster.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.cert.X509Certificate;
import javax.net.ssl.X509KeyManager;
import org.junit.jupiter.api.Test;

/** The nodes of one JVM proving one secret share keys and a TLS context; another secret shares nothing. */
class ArteryCredentialsTest {
    private static final String SECRET = "artery-credentials-test-secret-0123456789";
    private static final String OTHER = "artery-credentials-test-secret-0123456788";

    @Test
    void nodesOfOneSecretShareKeysUntilTheLastIsGone() {
        String first = ArteryCredentials.register(SECRET);
        String second = ArteryCredentials.register(SECRET);
        String other = ArteryCredentials.register(OTHER);
        try {
            assertThat(second).isNotEqualTo(first);
            assertThat(ArteryCredentials.lookup(second)).isSameAs(ArteryCredentials.lookup(first));
            assertThat(ArteryCredentials.lookup(second).sslContext()).isSameAs(ArteryCredentials.lookup(first).sslContext());
            assertThat(clientCertificate(second)).isEqualTo(clientCertificate(first));
            assertThat(ArteryCredentials.lookup(other)).isNotSameAs(ArteryCredentials.lookup(first));
            assertThat(clientCertificate(other)).isNotEqualTo(clientCertificate(first));

            X509Certificate shared = clientCertificate(first);
            ArteryCredentials.unregister(first);
            assertThat(clientCertificate(second)).isEqualTo(shared);
            ArteryCredentials.unregister(second);
            String again = ArteryCredentials.register(SECRET);
            assertThat(clientCertificate(again)).isNotEqualTo(shared);
            ArteryCredentials.unregister(again);
        } finally {
            ArteryCredentials.unregister(first);
            ArteryCredentials.unregister(second);
            ArteryCredentials.unregister(other);
        }
    }

    private static X509Certificate clientCertificate(String handle) {
        X509KeyManager keys = (X509KeyManager) ArteryCredentials.lookup(handle).keyManagers()[0];
        return keys.getCertificateChain(keys.chooseClientAlias(new String[] {"EC"}, null, null))[0];
    }
}
