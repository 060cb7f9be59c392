package io.sluice.coordinator.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class UiSessionsTest {
    private final AtomicLong now = new AtomicLong(1_000_000);
    private final UiSessions sessions = new UiSessions(Duration.ofMinutes(10), now::get);

    @Test
    void aSessionLivesUntilItsExpiryOrALogout() {
        String token = sessions.open();
        assertThat(token).hasSize(43).matches("[A-Za-z0-9_-]+");
        assertThat(sessions.valid(token)).isTrue();
        assertThat(sessions.valid(token + "x")).isFalse();
        assertThat(sessions.valid("")).isFalse();
        assertThat(sessions.valid(null)).isFalse();

        now.addAndGet(Duration.ofMinutes(10).toMillis() - 1);
        assertThat(sessions.valid(token)).isTrue();
        now.incrementAndGet();
        assertThat(sessions.valid(token)).as("expired").isFalse();
        assertThat(sessions.size()).as("an expired session is dropped when seen").isZero();

        String other = sessions.open();
        sessions.close(other);
        assertThat(sessions.valid(other)).as("logged out").isFalse();
        sessions.close("never issued");
        sessions.close(null);
    }

    @Test
    void tokensAreRandomAndTheirNumberIsBounded() {
        Set<String> tokens = new HashSet<>();
        for (int i = 0; i < UiSessions.MAX_SESSIONS + 50; i++) {
            tokens.add(sessions.open());
            now.incrementAndGet();
        }
        assertThat(tokens).hasSize(UiSessions.MAX_SESSIONS + 50);
        assertThat(sessions.size()).isEqualTo(UiSessions.MAX_SESSIONS);
    }

    @Test
    void aLifetimeMustBePositive() {
        assertThatThrownBy(() -> new UiSessions(Duration.ZERO, now::get)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("session lifetime must be positive: PT0S");
    }
}
