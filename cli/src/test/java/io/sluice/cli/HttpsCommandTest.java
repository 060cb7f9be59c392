package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.api.ApiSettingsDeclaration;
import io.sluice.api.AuthSecrets;
import io.sluice.api.LocalCluster;
import io.sluice.coordinator.HttpSettingsDeclaration;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice sql --coordinator https://...} against an embedded cluster serving HTTPS with a
 * self-signed certificate: the printed fingerprint pinned runs the script (and a job jar with
 * {@code sluice submit} in client mode), a wrong one is an error naming both fingerprints.
 */
class HttpsCommandTest {
    @TempDir
    static Path dir;
    private static LocalCluster cluster;
    private static String fingerprint;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeAll
    static void start() throws Exception {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        Path secretFile = Files.writeString(dir.resolve("secret"), Base64.getEncoder().encodeToString(secret));
        System.setProperty(AuthSecrets.FILE_PROPERTY, secretFile.toString());
        System.setProperty(HttpSettingsDeclaration.TLS_SELF_SIGNED.name(), "true");
        try {
            cluster = LocalCluster.start(LocalCluster.Options.of(1).withHttpPort(0));
        } finally {
            System.clearProperty(HttpSettingsDeclaration.TLS_SELF_SIGNED.name());
        }
        fingerprint = cluster.coordinator().httpsFingerprint().orElseThrow();
    }

    @AfterAll
    static void stop() {
        System.clearProperty(AuthSecrets.FILE_PROPERTY);
        if (cluster != null) {
            cluster.close();
        }
    }

    @BeforeEach
    void reset() {
        out.reset();
        err.reset();
    }

    private int run(String... args) {
        return Main.commandLine(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)).execute(args);
    }

    @Test
    void pinnedFingerprintRunsTheScript() {
        assertThat(run("sql", "--coordinator", "https://127.0.0.1:" + cluster.coordinator().httpPort(),
                "--http-tls-fingerprint", fingerprint, "--format", "csv", "-e", "SELECT 6 * 7 AS x"))
                .as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("x\n42\n");
        assertThat(run("jobs", "--coordinator", "https://127.0.0.1:" + cluster.coordinator().httpPort(),
                "--http-tls-fingerprint", fingerprint)).as(err.toString(StandardCharsets.UTF_8)).isZero();
    }

    /**
     * {@code sluice submit} in client mode: the job's {@code Session.create()} reaches the HTTPS
     * coordinator with the pin given to submit; a wrong pin fails the job naming both fingerprints.
     */
    @Test
    void submitInClientModeRunsTheJobOverHttps() throws Exception {
        Path jar = dir.resolve("https-job.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, HttpsSubmitJob.class.getName());
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            out.flush(); // the class itself comes from the test class path, as Sluice's own classes do
        }
        Path answer = dir.resolve("answer.txt");
        String https = "https://127.0.0.1:" + cluster.coordinator().httpPort();
        try {
            assertThat(run("submit", "--coordinator", https, "--http-tls-fingerprint", fingerprint, jar.toString(),
                    answer.toString())).as(err.toString(StandardCharsets.UTF_8)).isZero();
            assertThat(Files.readString(answer)).isEqualTo("42");

            String wrong = "CD:".repeat(31) + "CD";
            assertThat(run("submit", "--coordinator", https, "--http-tls-fingerprint", wrong, jar.toString(),
                    answer.toString())).isEqualTo(1);
            assertThat(err.toString(StandardCharsets.UTF_8)).contains("the coordinator's certificate has SHA-256 fingerprint " + fingerprint
                            + ", not the expected " + wrong);
        } finally {
            System.clearProperty(ApiSettingsDeclaration.MASTER.name());
            System.clearProperty(ApiSettingsDeclaration.MASTER_TLS_FINGERPRINT.name());
        }
    }

    @Test
    void wrongFingerprintIsAnErrorNamingBoth() {
        String wrong = "AB:".repeat(31) + "AB";
        assertThat(run("sql", "--coordinator", "https://127.0.0.1:" + cluster.coordinator().httpPort(),
                "--http-tls-fingerprint", wrong, "-e", "SELECT 1")).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("the coordinator's certificate has SHA-256 fingerprint "
                + fingerprint + ", not the expected " + wrong);
        err.reset();
        assertThat(run("sql", "--coordinator", "127.0.0.1:" + cluster.coordinator().httpPort(),
                "--http-tls-fingerprint", "12:34", "-e", "SELECT 1")).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("'12:34' is not a SHA-256 certificate fingerprint");
    }
}
