package io.sluice.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.cluster.auth.ArteryCredentials;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a client without the secret receives from a node's Artery port: a TLS 1.3 handshake that
 * fails for want of a certificate proving the secret, and before that only a server certificate
 * that depends on nothing secret, so nothing it recorded lets it test a guess offline.
 */
class ArteryOfflineGuessTest {
    private static final String HOST = "127.0.0.1";
    private static final String SECRET = "offline-guess-test-secret-0123456789";
    private static ActorSystem<Void> node;

    @BeforeAll
    static void start() {
        node = SluiceNode.start(Behaviors.empty(), NodeConfig.coordinator(HOST, 0).withSecret(SECRET)
                .withStableAfter(Duration.ofSeconds(2)));
    }

    @AfterAll
    static void stop() {
        SluiceNode.terminate(node, Duration.ofSeconds(30));
    }

    @Test
    void aClientWithoutTheSecretRecordsNothingThatTestsAGuess() throws Exception {
        List<X509Certificate> received = new ArrayList<>();
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(null, new TrustManager[] {new Recording(received)}, null);
        int port = (Integer) SluiceNode.selfAddress(node).getPort().get();
        boolean failed = false;
        int applicationBytes = 0;
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(new Socket(HOST, port), HOST, port,
                true)) {
            socket.setSoTimeout(10_000);
            socket.setEnabledProtocols(new String[] {"TLSv1.3"});
            socket.startHandshake();
            // TLS 1.3: the server checks the client's certificate after the client's side finished
            while (socket.getInputStream().read() >= 0) {
                applicationBytes++;
            }
        } catch (IOException refused) {
            failed = true;
        }
        assertThat(failed || applicationBytes == 0).as("the connection ends in a failure, nothing delivered").isTrue();
        assertThat(applicationBytes).isZero();
        assertThat(received).hasSize(1);
        X509Certificate certificate = received.get(0);
        assertThat(certificate.getSubjectX500Principal().getName()).isEqualTo("CN=" + ArteryCredentials.SERVER_NAME);
        assertThat(certificate.getIssuerX500Principal()).isEqualTo(certificate.getSubjectX500Principal());
        assertThat(certificate.getNonCriticalExtensionOIDs()).isNullOrEmpty();
        assertThat(certificate.getCriticalExtensionOIDs()).isNullOrEmpty();
        // the name the node's client certificate carries, computed for the server's key: nowhere in what was sent
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        mac.update("sluice-artery-v1:".getBytes(StandardCharsets.US_ASCII));
        byte[] tag = mac.doFinal(certificate.getPublicKey().getEncoded());
        String encoded = HexFormat.of().formatHex(certificate.getEncoded());
        assertThat(encoded).doesNotContain(HexFormat.of().formatHex(tag))
                .doesNotContain(HexFormat.of().formatHex(HexFormat.of().formatHex(tag).getBytes(StandardCharsets.US_ASCII)));
    }

    /** Accepts any server certificate and keeps it, as an attacker would. */
    private record Recording(List<X509Certificate> received) implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
            received.addAll(List.of(chain));
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
