package io.sluice.api;

import io.sluice.common.SluiceException;
import io.sluice.common.net.SecretStrength;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * Where a process finds the cluster's shared secret: the environment variable {@value #VARIABLE},
 * or else the file named by the system property {@value #FILE_PROPERTY} (its content, without a
 * trailing line break). Never a command-line argument, which {@code ps} shows to every user.
 * Standalone nodes require one unless authentication is explicitly off for local use
 * ({@code --insecure} or {@code -D}{@value #ENABLED_PROPERTY}{@code =false}).
 */
public final class AuthSecrets {
    public static final String VARIABLE = "SLUICE_AUTH_SECRET";
    public static final String FILE_PROPERTY = ApiSettingsDeclaration.AUTH_SECRET_FILE.name();
    public static final String ENABLED_PROPERTY = ApiSettingsDeclaration.AUTH_ENABLED.name();

    private AuthSecrets() {
    }

    /** The secret this process is given, or null when none is. */
    public static String configured() {
        return configured(System::getenv, System::getProperty);
    }

    static String configured(UnaryOperator<String> environment, UnaryOperator<String> properties) {
        String value = environment.apply(VARIABLE);
        if (value != null && !value.isEmpty()) {
            return value;
        }
        String file = properties.apply(FILE_PROPERTY);
        if (file == null || file.isEmpty()) {
            return null;
        }
        String content;
        try {
            content = Files.readString(Path.of(file), StandardCharsets.UTF_8).strip();
        } catch (IOException | RuntimeException e) {
            // the path only: never the file's content
            throw new SluiceException("cannot read the secret file " + file + " (" + FILE_PROPERTY + "): "
                    + e.getClass().getSimpleName());
        }
        if (content.isEmpty()) {
            throw new SluiceException("the secret file " + file + " (" + FILE_PROPERTY + ") is empty");
        }
        return content;
    }

    /**
     * The secret a standalone coordinator or worker runs with; null only when authentication is
     * explicitly off ({@code insecure}, or {@value #ENABLED_PROPERTY}{@code =false}).
     *
     * @throws SluiceException when no secret is given and authentication is not off
     */
    public static String required(boolean insecure) {
        return required(insecure, System::getenv, System::getProperty);
    }

    static String required(boolean insecure, UnaryOperator<String> environment, UnaryOperator<String> properties) {
        if (insecure || "false".equalsIgnoreCase(properties.apply(ENABLED_PROPERTY))) {
            return null;
        }
        String secret = configured(environment, properties);
        if (secret == null) {
            throw new SluiceException("no cluster secret: set " + VARIABLE + " (for example to the output of "
                    + "'openssl rand -base64 32') or -D" + FILE_PROPERTY + "=PATH in SLUICE_JAVA_OPTS, the same on "
                    + "every node and client; or pass --insecure to run without authentication, on a trusted "
                    + "machine only");
        }
        return SecretStrength.requireStrong(secret);
    }
}
