package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.coordinator.HistoryServer;
import io.sluice.coordinator.HttpSettingsDeclaration;
import io.sluice.coordinator.HttpsCredentials;
import io.sluice.testfixtures.DuckDbOracle;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coordinator's HTTP port serving HTTPS, so that the bearer secret never crosses the network
 * in clear: one embedded cluster with a certificate made at start ({@code --http-tls-self-signed}),
 * one with PEM files ({@code --http-tls-cert/-key}); clients pin the fingerprint or trust the
 * certificate file, and answers are DuckDB's on the same data.
 */
class HttpsTest {
    private static final String QUERY = "SELECT k, sum(v) AS s, count(*) AS c FROM t GROUP BY k ORDER BY k";
    private static final String WRONG_PIN = "00:".repeat(31) + "01";

    @TempDir
    static Path dir;
    private static DuckDbOracle duck;
    private static Path file;
    private static LocalCluster selfSigned;
    private static LocalCluster fromPem;
    private static Path certificatePem;

    @BeforeAll
    static void start() throws Exception {
        duck = new DuckDbOracle();
        file = dir.resolve("t.parquet");
        duck.execute("COPY (SELECT 'k' || (range % 7) AS k, range AS v FROM range(3000)) TO '" + file + "' (FORMAT PARQUET)");
        selfSigned = startWith(Map.of(HttpSettingsDeclaration.TLS_SELF_SIGNED.name(), "true"));

        HttpsCredentials credentials = HttpsCredentials.selfSigned("127.0.0.1");
        certificatePem = Files.writeString(dir.resolve("cert.pem"),
                pem("CERTIFICATE", credentials.certificate().getEncoded()), StandardCharsets.US_ASCII);
        Path key = Files.writeString(dir.resolve("key.pem"), pem("PRIVATE KEY", credentials.key().getEncoded()),
                StandardCharsets.US_ASCII);
        fromPem = startWith(Map.of(HttpSettingsDeclaration.TLS_CERT.name(), certificatePem.toString(),
                HttpSettingsDeclaration.TLS_KEY.name(), key.toString()));
        assertThat(fromPem.coordinator().httpsFingerprint()).contains(credentials.fingerprint());
    }

    /** A one-worker cluster started with these node settings, which are cleared once it has read them. */
    private static LocalCluster startWith(Map<String, String> settings) {
        settings.forEach(System::setProperty);
        try {
            return LocalCluster.start(LocalCluster.Options.of(1).withHttpPort(0));
        } finally {
            settings.keySet().forEach(System::clearProperty);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable closeable : new AutoCloseable[] {selfSigned, fromPem, duck}) {
            if (closeable != null) {
                closeable.close();
            }
        }
    }

    @Test
    void pinnedFingerprintRunsQueries() throws Exception {
        String fingerprint = selfSigned.coordinator().httpsFingerprint().orElseThrow();
        assertThat(fingerprint).matches("([0-9A-F]{2}:){31}[0-9A-F]{2}");
        // pasted without colons, in lower case: the same pin
        try (Session remote = Session.connect("127.0.0.1", selfSigned.coordinator().httpPort(), selfSigned.authSecret(),
                CoordinatorTls.pinned(fingerprint.replace(":", "").toLowerCase(java.util.Locale.ROOT)))) {
            assertThat(answer(remote)).isEqualTo(expected());
        }
    }

    @Test
    void wrongFingerprintIsRefusedNamingBoth() throws Exception {
        String fingerprint = selfSigned.coordinator().httpsFingerprint().orElseThrow();
        try (Session remote = Session.connect("127.0.0.1", selfSigned.coordinator().httpPort(), selfSigned.authSecret(),
                CoordinatorTls.pinned(WRONG_PIN))) {
            assertThatThrownBy(() -> answer(remote)).isInstanceOf(SluiceException.class)
                    .hasMessageContaining("cannot reach the coordinator at https://127.0.0.1:")
                    .hasMessageContaining("the coordinator's certificate has SHA-256 fingerprint " + fingerprint
                            + ", not the expected " + WRONG_PIN);
        }
        assertThatThrownBy(() -> CoordinatorTls.pinned("AB:CD")).isInstanceOf(SluiceException.class)
                .hasMessageContaining("'AB:CD' is not a SHA-256 certificate fingerprint");
        assertStillServing();
    }

    @Test
    void plainHttpToTheHttpsPortFails() throws Exception {
        try (Session plain = Session.connect("127.0.0.1", selfSigned.coordinator().httpPort(), selfSigned.authSecret())) {
            assertThatThrownBy(() -> answer(plain)).isInstanceOf(SluiceException.class)
                    .hasMessageContaining("cannot reach the coordinator at http://127.0.0.1:");
        }
        // nor does the JDK's default trust accept a self-signed certificate
        try (Session untrusted = Session.connect("127.0.0.1", selfSigned.coordinator().httpPort(), selfSigned.authSecret(),
                CoordinatorTls.defaultTrust())) {
            assertThatThrownBy(() -> answer(untrusted)).isInstanceOf(SluiceException.class)
                    .hasMessageContaining("cannot reach the coordinator at https://127.0.0.1:");
        }
        assertStillServing();
    }

    @Test
    void pemCertificateAndKeyServeHttps() throws Exception {
        String fingerprint = fromPem.coordinator().httpsFingerprint().orElseThrow();
        try (Session pinned = Session.connect("127.0.0.1", fromPem.coordinator().httpPort(), fromPem.authSecret(),
                CoordinatorTls.pinned(fingerprint));
                Session trusting = Session.connect("127.0.0.1", fromPem.coordinator().httpPort(), fromPem.authSecret(),
                        CoordinatorTls.trusting(certificatePem))) {
            assertThat(answer(pinned)).isEqualTo(expected());
            // trusting the file checks the host name too: the certificate names 127.0.0.1
            assertThat(answer(trusting)).isEqualTo(expected());
        }
        // the same file trusted for another name of this host is refused: the name is checked
        try (Session wrongName = Session.connect("localhost", fromPem.coordinator().httpPort(), fromPem.authSecret(),
                CoordinatorTls.trusting(certificatePem))) {
            assertThatThrownBy(() -> answer(wrongName)).isInstanceOf(SluiceException.class)
                    .hasMessageContaining("cannot reach the coordinator at https://localhost:");
        }
    }

    /**
     * {@code sluice history} listens as the coordinator does: HTTPS with a certificate made at start,
     * whose pinned fingerprint answers the API; a plain HTTP request to that port gets no answer.
     */
    @Test
    void historyServerServesHttpsToAPinnedClient() throws Exception {
        Path events = Files.createDirectories(dir.resolve("history-events"));
        System.setProperty(HttpSettingsDeclaration.TLS_SELF_SIGNED.name(), "true");
        HistoryServer history;
        try {
            history = HistoryServer.start(events, "127.0.0.1", 0, "history-https-secret", 10);
        } finally {
            System.clearProperty(HttpSettingsDeclaration.TLS_SELF_SIGNED.name());
        }
        try (history) {
            String fingerprint = history.httpsFingerprint().orElseThrow();
            HttpRequest queries = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + history.httpPort()
                    + "/api/v1/queries")).header("Authorization", "Bearer history-https-secret")
                    .timeout(Duration.ofSeconds(20)).build();
            HttpClient pinned = CoordinatorTls.pinned(fingerprint).configure(HttpClient.newBuilder())
                    .connectTimeout(Duration.ofSeconds(10)).build();
            HttpResponse<String> answer = pinned.send(queries, HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            assertThat(answer.body()).startsWith("[");

            HttpClient wrongPin = CoordinatorTls.pinned(WRONG_PIN).configure(HttpClient.newBuilder()).build();
            assertThatThrownBy(() -> wrongPin.send(queries, HttpResponse.BodyHandlers.ofString()))
                    .isInstanceOf(IOException.class);
            HttpClient plain = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(10)).build();
            HttpRequest plainQueries = HttpRequest.newBuilder(queries, (name, value) -> true)
                    .uri(URI.create("http://127.0.0.1:" + history.httpPort() + "/api/v1/queries")).build();
            assertThatThrownBy(() -> plain.send(plainQueries, HttpResponse.BodyHandlers.ofString()))
                    .isInstanceOf(IOException.class);
            // still serving after both refusals
            assertThat(pinned.send(queries, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void badPemFilesAreNamed() throws Exception {
        Path notAKey = Files.writeString(dir.resolve("not-a-key.pem"), "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n");
        assertThatThrownBy(() -> HttpsCredentials.fromPem(certificatePem, notAKey)).isInstanceOf(SluiceException.class)
                .hasMessageContaining("the HTTPS private key " + notAKey + " is not a PEM PKCS#8 key");
        Path notACertificate = Files.writeString(dir.resolve("not-a-cert.pem"), "hello\n");
        assertThatThrownBy(() -> HttpsCredentials.fromPem(notACertificate, notAKey)).isInstanceOf(SluiceException.class)
                .hasMessageContaining(notACertificate.toString());
        Path missing = dir.resolve("missing.pem");
        assertThatThrownBy(() -> CoordinatorTls.trusting(missing).configure(java.net.http.HttpClient.newBuilder()))
                .isInstanceOf(SluiceException.class).hasMessageContaining("cannot read the trusted certificates " + missing);
    }

    private static void assertStillServing() throws Exception {
        try (Session remote = Session.connect("127.0.0.1", selfSigned.coordinator().httpPort(), selfSigned.authSecret(),
                CoordinatorTls.pinned(selfSigned.coordinator().httpsFingerprint().orElseThrow()))) {
            assertThat(answer(remote)).isEqualTo(expected());
        }
    }

    private static List<List<Object>> answer(Session remote) {
        remote.sql("CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION '" + file + "'");
        return DuckDbOracle.normalize(remote.sql(QUERY).collect());
    }

    private static List<List<Object>> expected() throws Exception {
        return duck.query(QUERY.replace("FROM t", "FROM '" + file + "'"));
    }
}
