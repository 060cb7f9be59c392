package io.sluice.coordinator;

import static io.sluice.common.settings.SettingType.BOOLEAN;
import static io.sluice.common.settings.SettingType.BYTE_SIZE;
import static io.sluice.common.settings.SettingType.DURATION;
import static io.sluice.common.settings.SettingType.INT;
import static io.sluice.common.settings.SettingType.STRING;

import io.sluice.common.net.UnprovenLimitSettings;
import io.sluice.common.settings.Setting;
import io.sluice.common.settings.SettingsDeclaration;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * What the HTTP servers (the coordinator's, {@code sluice history}'s) hold for clients that have
 * not proven the secret, how long an idle connection stays open ({@link ConnectionGuard}), and
 * whether the coordinator runs submitted job jars ({@link HttpEndpoint}).
 */
public final class HttpSettingsDeclaration implements SettingsDeclaration {
    /** Limits on connections that have not proven the secret ({@link HttpConnections}). */
    public static final UnprovenLimitSettings UNAUTHENTICATED = UnprovenLimitSettings.declare("sluice.http",
            "HTTP server (proven by a request with the secret; by any request, without one)", 32, 256);
    public static final Setting<Duration> IDLE_TIMEOUT = Setting.property("sluice.http.idle-timeout", DURATION,
            Duration.ofMinutes(2), "an HTTP connection with no request running or answer being sent this long is "
                    + "closed").between(Duration.ofSeconds(1), Duration.ofHours(1));
    public static final Setting<Integer> HEALTH_THREADS = Setting.property("sluice.http.health-threads", INT, 2,
            "threads answering `/v1/health`; 64 more requests wait, further ones are told busy (503)").between(1, 64);
    public static final Setting<Boolean> ALLOW_JOB_JARS = Setting.property("sluice.coordinator.allow-job-jars",
            BOOLEAN, false, "run job jars submitted to `POST /v1/submit` (cluster deploy mode; "
                    + "`--allow-job-jars`): code from anyone holding the secret runs on the coordinator");
    public static final Setting<Long> JOB_JAR_MAX_BYTES = Setting.property("sluice.coordinator.job-jar.max-bytes",
            BYTE_SIZE, 16L << 20, "the largest job jar `POST /v1/submit` accepts (413 past it)")
            .between(1L, 16L << 20);
    public static final Setting<Duration> JOB_TIMEOUT = Setting.property("sluice.coordinator.job-jar.timeout",
            DURATION, Duration.ofHours(1), "a submitted job still running this long is cancelled")
            .between(Duration.ofSeconds(1), Duration.ofDays(7));

    public static final Setting<String> TLS_CERT = Setting.node("sluice.http.tls-cert", STRING, "",
            "serve HTTPS with this PEM certificate chain, the server's first (`--http-tls-cert`; with "
                    + "`sluice.http.tls-key`); empty: plain HTTP unless `sluice.http.tls-self-signed`");
    public static final Setting<String> TLS_KEY = Setting.node("sluice.http.tls-key", STRING, "",
            "the PEM PKCS#8 private key (RSA or EC, unencrypted) of `sluice.http.tls-cert` (`--http-tls-key`)");
    public static final Setting<Boolean> TLS_SELF_SIGNED = Setting.node("sluice.http.tls-self-signed", BOOLEAN,
            false, "serve HTTPS with a certificate made at start; its SHA-256 fingerprint is printed for clients "
                    + "to pin (`--http-tls-self-signed`, `--http-tls-fingerprint`)");

    @Override
    public List<Setting<?>> settings() {
        return Stream.concat(UNAUTHENTICATED.all().stream(),
                Stream.of(IDLE_TIMEOUT, HEALTH_THREADS, ALLOW_JOB_JARS, JOB_JAR_MAX_BYTES, JOB_TIMEOUT,
                        TLS_CERT, TLS_KEY, TLS_SELF_SIGNED)).toList();
    }
}
