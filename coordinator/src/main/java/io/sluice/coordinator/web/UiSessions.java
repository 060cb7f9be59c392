package io.sluice.coordinator.web;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The web UI's login sessions: a login opens one under a random 256-bit token (the browser's
 * cookie; never the cluster secret), valid until its expiry or a logout. Tokens are kept only as
 * their SHA-256, so neither a lookup's timing nor a dump of this map reveals a usable token. At most
 * {@link #MAX_SESSIONS} live at once: opening one more first drops the expired ones, then the one
 * closest to its expiry.
 */
public final class UiSessions {
    static final int MAX_SESSIONS = 1000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Duration lifetime;
    private final LongSupplier clockMillis;
    /** SHA-256 of a token (hex) to its expiry, epoch ms. */
    private final Map<String, Long> expiries = new ConcurrentHashMap<>();

    public UiSessions(Duration lifetime, LongSupplier clockMillis) {
        this.lifetime = requireNonNull(lifetime, "lifetime is null");
        this.clockMillis = requireNonNull(clockMillis, "clockMillis is null");
        if (lifetime.isNegative() || lifetime.isZero()) {
            throw new IllegalArgumentException("session lifetime must be positive: " + lifetime);
        }
    }

    /** How long a session lasts after its login. */
    public Duration lifetime() {
        return lifetime;
    }

    /** A new session's token. */
    public synchronized String open() {
        long now = clockMillis.getAsLong();
        if (expiries.size() >= MAX_SESSIONS) {
            expiries.values().removeIf(expiry -> expiry <= now);
        }
        while (expiries.size() >= MAX_SESSIONS) {
            expiries.entrySet().stream().min(Map.Entry.comparingByValue())
                    .ifPresent(oldest -> expiries.remove(oldest.getKey()));
        }
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        expiries.put(digest(token), now + lifetime.toMillis());
        return token;
    }

    /** Whether {@code token} names a session that has not expired (an expired one is dropped). */
    public boolean valid(String token) {
        if (token == null || token.isEmpty()) {
            return false;
        }
        String key = digest(token);
        Long expiry = expiries.get(key);
        if (expiry == null) {
            return false;
        }
        if (expiry <= clockMillis.getAsLong()) {
            expiries.remove(key);
            return false;
        }
        return true;
    }

    /** Ends the session (a logout); unknown tokens are ignored. */
    public void close(String token) {
        if (token != null) {
            expiries.remove(digest(token));
        }
    }

    int size() {
        return expiries.size();
    }

    private static String digest(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
