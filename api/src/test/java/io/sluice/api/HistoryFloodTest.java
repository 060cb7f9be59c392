package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.coordinator.HistoryServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice history}'s HTTP port under an unauthenticated flood, over real sockets on
 * 127.0.0.1, guarded as the coordinator's ({@link HttpFloodTest}): connections that have not
 * proven the secret are limited and closed at the deadline, a request with the secret still gets
 * its answer during the flood, and a connection that proved the secret outlives the deadline.
 */
class HistoryFloodTest {
    private static final String SECRET = "history-flood-secret";
    /** Short for the test, but above the time a first request takes to parse on a loaded machine. */
    private static final Duration DEADLINE = Duration.ofSeconds(3);
    private static final Duration IDLE = Duration.ofSeconds(30);
    private static final int PER_ADDRESS = 32;
    private static final List<String> PROPERTIES = List.of("sluice.http.auth-timeout", "sluice.http.idle-timeout");

    @TempDir
    static Path events;
    private static HistoryServer history;

    @BeforeAll
    static void start() {
        System.setProperty("sluice.http.auth-timeout", DEADLINE.toMillis() + "ms");
        System.setProperty("sluice.http.idle-timeout", IDLE.toMillis() + "ms");
        history = HistoryServer.start(events, "127.0.0.1", 0, SECRET, 10);
    }

    @AfterAll
    static void stop() {
        PROPERTIES.forEach(System::clearProperty);
        if (history != null) {
            history.close();
        }
    }

    @Test
    void aRequestWithTheSecretIsAnsweredDuringAFloodOf300HalfSentRequests() throws Exception {
        Duration quiet = timedQuery();
        try (HalfSentFlood flood = HalfSentFlood.open(history.httpPort(), 300,
                "GET /api/v1/queries HTTP/1.1\r\nHost: x\r\nAuthoriz")) {
            Duration underFlood = timedQuery();
            System.out.println("HistoryFloodTest: quiet " + quiet + ", under the flood " + underFlood);
            assertThat(underFlood).as("a request during the flood (quiet: %s)", quiet)
                    .isLessThan(quiet.multipliedBy(3).plus(DEADLINE.dividedBy(2)));
            assertThat(history.unauthenticatedHttpConnections())
                    .as("unauthenticated connections the history server holds").isLessThanOrEqualTo(PER_ADDRESS);
            Thread.sleep(DEADLINE.plusSeconds(1).toMillis());
            assertThat(flood.stillOpen()).as("flood connections left open past the deadline").isZero();
        }
    }

    @Test
    void aConnectionThatProvedTheSecretOutlivesTheDeadlineAndOneThatDidNotIsClosed() throws Exception {
        try (Socket proven = new Socket("127.0.0.1", history.httpPort());
                Socket refused = new Socket("127.0.0.1", history.httpPort())) {
            proven.setSoTimeout(10_000);
            refused.setSoTimeout(10_000);
            assertThat(exchange(proven, SECRET)).startsWith("HTTP/1.1 200");
            assertThat(exchange(refused, "not-the-secret")).startsWith("HTTP/1.1 401");
            Thread.sleep(DEADLINE.plusSeconds(1).toMillis());
            assertThat(exchange(proven, SECRET)).as("the proven connection past the deadline").startsWith("HTTP/1.1 200");
            assertThat(exchange(refused, SECRET)).as("the unproven connection past the deadline").isEmpty();
        }
    }

    /** A request with the secret on a new connection, its answer checked; returns its duration. */
    private static Duration timedQuery() throws IOException {
        long start = System.nanoTime();
        try (Socket socket = new Socket("127.0.0.1", history.httpPort())) {
            socket.setSoTimeout(10_000);
            String answer = exchange(socket, SECRET);
            assertThat(answer).startsWith("HTTP/1.1 200").endsWith("[]");
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /**
     * Sends {@code GET /api/v1/queries} with {@code token} on {@code socket} and reads its answer
     * (header and {@code Content-Length} body); empty when the server has closed the connection.
     */
    private static String exchange(Socket socket, String token) throws IOException {
        OutputStream out = socket.getOutputStream();
        InputStream in = socket.getInputStream();
        try {
            out.write(("GET /api/v1/queries HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + token + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
        } catch (IOException closed) {
            return "";
        }
        ByteArrayOutputStream header = new ByteArrayOutputStream();
        try {
            while (!header.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    return header.toString(StandardCharsets.US_ASCII);
                }
                header.write(b);
            }
        } catch (SocketTimeoutException e) {
            throw e;
        } catch (IOException reset) {
            return header.toString(StandardCharsets.US_ASCII);
        }
        String text = header.toString(StandardCharsets.US_ASCII);
        int length = text.lines().filter(l -> l.toLowerCase(Locale.ROOT).startsWith("content-length:"))
                .mapToInt(l -> Integer.parseInt(l.substring(l.indexOf(':') + 1).trim())).findFirst().orElse(0);
        return text + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }
}
