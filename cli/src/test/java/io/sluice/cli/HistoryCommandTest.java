package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.coordinator.HttpSettingsDeclaration;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice history}'s arguments, without serving: its usage errors, a missing directory and a
 * certificate without its key, each one line.
 */
class HistoryCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path temp;

    private int run(String... args) {
        return Main.commandLine(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)).execute(args);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theEventLogDirectoryIsRequired() {
        assertThat(run("history", "--http-port", "0")).isEqualTo(2);
        assertThat(err()).startsWith("error: Missing required option").contains("--event-log-dir").hasLineCount(1);
    }

    @Test
    void aMissingDirectoryIsAnErrorNamingIt() {
        Path missing = temp.resolve("no-events");
        assertThat(run("history", "--event-log-dir", missing.toString(), "--http-port", "0", "--insecure")).isEqualTo(1);
        assertThat(err()).contains(missing.toString()).contains("does not exist").hasLineCount(1);
    }

    @Test
    void aCertificateWithoutItsKeyNamesBothOptions() throws Exception {
        Path certificate = java.nio.file.Files.writeString(temp.resolve("cert.pem"), "not read\n");
        try {
            assertThat(run("history", "--event-log-dir", temp.toString(), "--http-port", "0", "--insecure",
                    "--http-tls-cert", certificate.toString())).isEqualTo(1);
        } finally {
            System.clearProperty(HttpSettingsDeclaration.TLS_CERT.name());
        }
        assertThat(err()).contains("HTTPS needs both").contains("--http-tls-cert and --http-tls-key").hasLineCount(1);
    }

    @Test
    void aBadPortNamesTheOption() {
        assertThat(run("history", "--event-log-dir", temp.toString(), "--http-port", "70000")).isEqualTo(2);
        assertThat(err()).contains("--http-port");
    }
}
