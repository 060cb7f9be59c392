package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.cluster.NodeConfig;
import io.sluice.common.SluiceException;
import io.sluice.common.net.SecretStrength;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuthSecretsTest {
    @TempDir
    Path dir;

    @Test
    void theEnvironmentWinsThenTheSecretFile() throws Exception {
        Path file = dir.resolve("secret");
        Files.writeString(file, "from-file\n");
        Map<String, String> props = Map.of(AuthSecrets.FILE_PROPERTY, file.toString());
        assertThat(AuthSecrets.configured(Map.of(AuthSecrets.VARIABLE, "from-env")::get, props::get)).isEqualTo("from-env");
        assertThat(AuthSecrets.configured(Map.<String, String>of()::get, props::get)).isEqualTo("from-file");
        assertThat(AuthSecrets.configured(Map.<String, String>of()::get, Map.<String, String>of()::get)).isNull();
    }

    @Test
    void anUnreadableOrEmptyFileIsAnErrorThatNeverShowsContent() throws Exception {
        Path empty = Files.writeString(dir.resolve("empty"), "  \n");
        assertThatThrownBy(() -> AuthSecrets.configured(Map.<String, String>of()::get,
                Map.of(AuthSecrets.FILE_PROPERTY, empty.toString())::get)).hasMessageContaining("is empty");
        assertThatThrownBy(() -> AuthSecrets.configured(Map.<String, String>of()::get,
                Map.of(AuthSecrets.FILE_PROPERTY, "/etc/shadow-not-here")::get))
                .isInstanceOf(SluiceException.class).hasMessage("cannot read the secret file /etc/shadow-not-here "
                        + "(sluice.auth.secret-file): NoSuchFileException");
    }

    @Test
    void nodesNeedASecretUnlessAuthenticationIsExplicitlyOff() {
        assertThatThrownBy(() -> AuthSecrets.required(false, Map.<String, String>of()::get, Map.<String, String>of()::get))
                .isInstanceOf(SluiceException.class).hasMessageStartingWith("no cluster secret");
        assertThat(AuthSecrets.required(true, Map.<String, String>of()::get, Map.<String, String>of()::get)).isNull();
        assertThat(AuthSecrets.required(false, Map.<String, String>of()::get,
                Map.of(AuthSecrets.ENABLED_PROPERTY, "false")::get)).isNull();
        String strong = "q3Jx9VwL0kT2mZpA7rYbNc4E"; // 24 base64 characters: 144 bits
        assertThat(AuthSecrets.required(false, Map.of(AuthSecrets.VARIABLE, strong)::get, Map.<String, String>of()::get))
                .isEqualTo(strong);
    }

    @Test
    void aSecretShorterThan128BitsIsRefusedWithHowToMakeOne() {
        for (String weak : List.of("s", "s3cret", "0123456789abcdef0123456789abcde", "q3Jx9VwL0kT2mZpA7rYbN")) {
            assertThatThrownBy(() -> AuthSecrets.required(false, Map.of(AuthSecrets.VARIABLE, weak)::get,
                    Map.<String, String>of()::get))
                    .isInstanceOf(SluiceException.class)
                    .hasMessageStartingWith("the cluster secret is too short: " + weak.length() + " characters")
                    .hasMessageContaining("openssl rand -base64 32")
                    .satisfies(e -> assertThat(weak.length() < 4 || !e.getMessage().contains(weak)).isTrue());
        }
        // 32 hex digits and 22 base64 characters are just enough
        assertThat(SecretStrength.bits("0123456789abcdef0123456789abcdef")).isEqualTo(128);
        assertThat(SecretStrength.requireStrong("q3Jx9VwL0kT2mZpA7rYbNw==")).isNotNull();
        assertThatThrownBy(() -> NodeConfig.coordinator("127.0.0.1", 0).withSecret("s3cret"))
                .isInstanceOf(SluiceException.class).hasMessageContaining("openssl rand -base64 32");
    }
}
