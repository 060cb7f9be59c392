package io.sluice.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.sluice.api.LocalCluster;
import io.sluice.api.Session;
import io.sluice.common.net.UnprovenConnections;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A client without the secret opens hundreds of idle TCP connections to the Spark Connect port (some
 * send nothing, some only the HTTP/2 preface): the ones past the per-address limit are closed at
 * once, the rest at the deadline, and Spark's client with the secret, connected before the flood or
 * after it, still gets its answers.
 */
class ConnectFloodIT {
    private static final int FLOOD = 300;
    private static final int PER_ADDRESS = 32;
    private static final Duration DEADLINE = Duration.ofSeconds(9);
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private static Session session;
    private static ConnectServer server;
    private static String url;

    @BeforeAll
    static void start() throws Exception {
        session = Session.local(LocalCluster.Options.of(1));
        LocalCluster cluster = session.localCluster();
        server = ConnectServer.start(cluster.coordinator(), "127.0.0.1", 0, cluster.authSecret(),
                new UnprovenConnections.Limits(PER_ADDRESS, 128, DEADLINE));
        url = "sc://localhost:" + server.port() + "/;token=" + cluster.authSecret();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (session != null) {
            session.close();
        }
    }

    @Test
    void idleFloodIsClosedWhileAuthenticatedClientsAreServed() throws Exception {
        try (SparkSession before = SparkSession.builder().remote(url).create()) {
            assertThat(answer(before)).isEqualTo(42);
            List<Socket> flood = new ArrayList<>();
            try {
                for (int i = 0; i < FLOOD; i++) {
                    Socket socket = new Socket();
                    flood.add(socket);
                    socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
                    if (i % 2 == 1) {
                        socket.getOutputStream().write(PREFACE);
                        socket.getOutputStream().flush();
                    }
                }
                // past the per-address limit the oldest are closed as soon as newer ones come, long
                // before the deadline; the newest are still open (the kernel may queue them out of order)
                long soon = System.nanoTime() + DEADLINE.toNanos() / 3;
                int closedSoon = 0;
                for (Socket socket : flood) {
                    if (closedByServer(socket, Duration.ofNanos(Math.max(0, soon - System.nanoTime())))) {
                        closedSoon++;
                    }
                }
                assertThat(closedSoon).isBetween(FLOOD - PER_ADDRESS, FLOOD - 1);

                long started = System.nanoTime();
                assertThat(answer(before)).isEqualTo(42);
                try (SparkSession after = SparkSession.builder().remote(url).create()) {
                    assertThat(answer(after)).isEqualTo(42);
                }
                assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(30));

                // the rest at the deadline, however long they wait
                for (int i = 0; i < FLOOD; i++) {
                    assertThat(closedByServer(flood.get(i), DEADLINE.plusSeconds(10))).as("connection %d closed", i).isTrue();
                }
                // none left unproven (a client connection opened meanwhile and still silent is cut at its deadline)
                long settled = System.nanoTime() + DEADLINE.plusSeconds(5).toNanos();
                while (server.unauthenticated() > 0 && System.nanoTime() < settled) {
                    Thread.sleep(100);
                }
                assertThat(server.unauthenticated()).isZero();
                assertThat(server.unauthenticatedClosed()).isGreaterThanOrEqualTo(FLOOD);
                // the connection proven before the flood survived it and the deadline
                assertThat(answer(before)).isEqualTo(42);
            } finally {
                for (Socket socket : flood) {
                    socket.close();
                }
            }
        }
    }

    private static long answer(SparkSession spark) {
        return assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            List<Row> rows = spark.sql("SELECT 41 + 1 AS answer").collectAsList();
            return ((Number) rows.get(0).get(0)).longValue();
        });
    }

    /**
     * Reads (and drops whatever the server sent, e.g. its SETTINGS) until end of stream: true when it
     * came within {@code wait} (a closed one is seen even with no time left).
     */
    private static boolean closedByServer(Socket socket, Duration wait) throws IOException {
        long end = System.nanoTime() + wait.toNanos();
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[1024];
        while (true) {
            long left = end - System.nanoTime();
            socket.setSoTimeout((int) Math.max(1, left / 1_000_000));
            try {
                if (in.read(buffer) < 0) {
                    return true;
                }
            } catch (SocketTimeoutException e) {
                return false;
            } catch (SocketException e) {
                return true; // reset by the server: closed too
            }
        }
    }
}
