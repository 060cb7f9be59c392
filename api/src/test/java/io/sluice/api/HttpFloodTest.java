package io.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.testfixtures.DuckDbOracle;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coordinator's HTTP port under an unauthenticated flood, over real sockets on 127.0.0.1:
 * connections that have not proven the secret are limited apart from proven ones and closed at a
 * deadline however slowly they send, idle proven connections are closed, health requests use a
 * bounded pool, and a query with the secret still answers right.
 */
class HttpFloodTest {
    private static final String QUERY = "SELECT k, count(*) AS c, sum(v) AS s FROM t GROUP BY k ORDER BY k";
    /** Short for the test, but above the seconds a first request takes to parse on a loaded machine. */
    private static final Duration DEADLINE = Duration.ofSeconds(5);
    private static final Duration IDLE = Duration.ofSeconds(2);
    private static final List<String> PROPERTIES = List.of("sluice.http.auth-timeout", "sluice.http.idle-timeout");

    @TempDir
    static Path data;
    private static DuckDbOracle duck;
    private static Session session;
    private static int port;
    private static String secret;

    @BeforeAll
    static void start() throws Exception {
        System.setProperty("sluice.http.auth-timeout", DEADLINE.toMillis() + "ms");
        System.setProperty("sluice.http.idle-timeout", IDLE.toMillis() + "ms");
        duck = new DuckDbOracle();
        session = Session.local(LocalCluster.Options.of(2).withHttpPort(0).withAllowedRoots(List.of(data.toString())));
        ClusterTesting.createKeyedCsvTable(duck, session, data);
        port = session.localCluster().coordinator().httpPort();
        secret = session.localCluster().authSecret();
    }

    @AfterAll
    static void stop() throws Exception {
        PROPERTIES.forEach(System::clearProperty);
        ClusterTesting.closeAll(session, duck);
    }

    /** The query over HTTP on a new connection, checked against DuckDB; returns its duration. */
    private static Duration timedRemoteQuery() throws Exception {
        long start = System.nanoTime();
        try (Session remote = Session.connect("127.0.0.1", port, secret)) {
            assertThat(DuckDbOracle.normalize(remote.sql(QUERY).collect())).isEqualTo(duck.query(QUERY));
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private static Duration median(List<Duration> times) {
        return times.stream().sorted().toList().get(times.size() / 2);
    }

    @Test
    void aQueryWithTheSecretAnswersRightDuringAFloodOf2000HalfSentRequests() throws Exception {
        timedRemoteQuery();
        Duration quiet = median(List.of(timedRemoteQuery(), timedRemoteQuery(), timedRemoteQuery()));
        long opening = System.nanoTime();
        try (HalfSentFlood flood = HalfSentFlood.open(port, 2000, "POST /v1/sql HTTP/1.1\r\nHost: x\r\nContent-Le")) {
            long floodStart = System.nanoTime();
            Duration underFlood = median(List.of(timedRemoteQuery(), timedRemoteQuery(), timedRemoteQuery()));
            System.out.println("HttpFloodTest: quiet " + quiet + ", under the flood " + underFlood + " (flood opened in "
                    + Duration.ofNanos(floodStart - opening) + ")");
            assertThat(underFlood).as("a query during the flood (quiet: %s)", quiet)
                    .isLessThanOrEqualTo(quiet.multipliedBy(2).plusMillis(200));
            assertThat(session.localCluster().coordinator().unauthenticatedHttpConnections())
                    .as("unauthenticated connections the coordinator holds").isLessThanOrEqualTo(32);
            Thread.sleep(DEADLINE.plusSeconds(1).toMillis());
            assertThat(flood.stillOpen()).as("flood connections left open past the deadline").isZero();
        }
    }

    @Test
    void aConnectionThatDribblesItsHeaderIsClosedAtTheDeadline() throws Exception {
        byte[] header = ("GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Padding: " + "a".repeat(200) + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(100);
            Duration open = secondsUntilClosed(socket, header);
            assertThat(open).isGreaterThanOrEqualTo(DEADLINE.minusMillis(300)).isLessThan(DEADLINE.plusSeconds(2));
        }
    }

    @Test
    void anIdleAuthenticatedConnectionIsClosedAfterTheIdleTimeout() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET /v1/jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + secret + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            assertThat(new String(in.readNBytes(12), StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 200");
            long start = System.nanoTime();
            socket.setSoTimeout((int) IDLE.multipliedBy(4).toMillis());
            try {
                while (in.read() >= 0) {
                    // the rest of the answer
                }
            } catch (SocketTimeoutException e) {
                // still open
            } catch (IOException e) {
                // reset: closed
            }
            Duration open = Duration.ofNanos(System.nanoTime() - start);
            assertThat(open).isGreaterThanOrEqualTo(IDLE.minusMillis(300)).isLessThan(IDLE.multipliedBy(3));
        }
        assertThat(timedRemoteQuery()).isPositive();
    }

    @Test
    void manyConcurrentHealthRequestsUseABoundedPool() throws Exception {
        List<Socket> clients = new ArrayList<>();
        int ok = 0;
        try {
            byte[] requests = "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n".repeat(40).getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < 24; i++) {
                Socket socket = new Socket("127.0.0.1", port);
                socket.setSoTimeout(20_000);
                clients.add(socket);
            }
            for (Socket socket : clients) {
                socket.getOutputStream().write(requests);
            }
            for (Socket socket : clients) {
                String answers = readAnswers(socket.getInputStream(), 40);
                ok += answers.split("HTTP/1.1 200", -1).length - 1;
            }
        } finally {
            for (Socket socket : clients) {
                socket.close();
            }
        }
        assertThat(ok).as("health answers").isPositive();
        // the pools' own threads, counted by name (the JVM's peak count also moves with unrelated work, e.g.
        // Pekko's): 2 a coordinator, and a coordinator of an earlier test class may still be winding down
        long healthThreads = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("sluice-health-")).count();
        assertThat(healthThreads).as("health threads after answering 960 health requests").isLessThanOrEqualTo(4);
    }

    /** Reads until {@code count} answers' status lines arrived, or the server stopped. */
    private static String readAnswers(InputStream in, int count) throws IOException {
        StringBuilder text = new StringBuilder();
        byte[] buffer = new byte[8192];
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (text.toString().split("HTTP/1.1 ", -1).length - 1 < count && System.nanoTime() < deadline) {
            int n = in.read(buffer);
            if (n < 0) {
                break;
            }
            text.append(new String(buffer, 0, n, StandardCharsets.US_ASCII));
        }
        return text.toString();
    }

    /** Sends {@code bytes} one every 100 ms until the server closes the socket; how long that took. */
    private static Duration secondsUntilClosed(Socket socket, byte[] bytes) throws IOException {
        long start = System.nanoTime();
        OutputStream out = socket.getOutputStream();
        InputStream in = socket.getInputStream();
        for (int i = 0; i < bytes.length && System.nanoTime() - start < DEADLINE.multipliedBy(4).toNanos(); i++) {
            try {
                out.write(bytes[i]);
                out.flush();
                if (in.read() < 0) {
                    break;
                }
            } catch (SocketTimeoutException e) {
                // nothing yet: send the next byte
            } catch (IOException e) {
                break;
            }
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
