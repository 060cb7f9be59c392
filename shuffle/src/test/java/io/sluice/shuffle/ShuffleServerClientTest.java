package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShuffleServerClientTest {
    @TempDir
    Path root;

    private ShuffleServer server;
    private ShuffleClient client;

    @BeforeEach
    void setUp() {
        server = new ShuffleServer("127.0.0.1", 0, root).start();
        client = new ShuffleClient("tester", Duration.ofSeconds(10));
    }

    @AfterEach
    void tearDown() {
        client.close();
        server.close();
    }

    private byte[] writeBlock(String shuffleId, int map, int partition, int size) throws Exception {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        Path file = ShuffleBlocks.blockFile(root, shuffleId, map, partition);
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
        return bytes;
    }

    @Test
    void servesBlocksAndCounts() throws Exception {
        byte[] small = writeBlock("s1", 0, 3, 10);
        byte[] large = writeBlock("s1", 1, 3, 3 << 20);
        byte[] empty = writeBlock("s1", 2, 0, 0);
        assertThat(client.fetch("127.0.0.1", server.port(), "s1", 0, 3)).isEqualTo(small);
        assertThat(client.fetch("127.0.0.1", server.port(), "s1", 1, 3)).isEqualTo(large);
        assertThat(client.fetch("127.0.0.1", server.port(), "s1", 2, 0)).isEqualTo(empty);
        assertThat(server.blocksServed()).isEqualTo(3);
        assertThat(server.bytesServed()).isEqualTo(10 + (3 << 20));
        assertThat(server.blocksServedTo()).containsEntry("tester", 3L).hasSize(1);
        assertThat(server.connectionsAccepted()).as("the client reuses its connection").isEqualTo(1);
    }

    @Test
    void missingBlockNamesBlockAndServer() throws Exception {
        String address = "127.0.0.1:" + server.port();
        assertThatThrownBy(() -> client.fetch("127.0.0.1", server.port(), "s9", 4, 2))
                .isInstanceOf(ShuffleFetchException.class)
                .hasMessageContaining("shuffle=s9 map=4 partition=2")
                .hasMessageContaining("no block")
                .hasMessageContaining(address)
                .satisfies(e -> {
                    ShuffleFetchException f = (ShuffleFetchException) e;
                    assertThat(f.shuffleId()).isEqualTo("s9");
                    assertThat(f.map()).isEqualTo(4);
                    assertThat(f.partition()).isEqualTo(2);
                    assertThat(f.port()).isEqualTo(server.port());
                });
        assertThat(server.blocksServed()).isZero();
        // The connection survives an error answer and serves the next request.
        byte[] bytes = writeBlock("s9", 4, 2, 100);
        assertThat(client.fetch("127.0.0.1", server.port(), "s9", 4, 2)).isEqualTo(bytes);
    }

    @Test
    void pathTraversalIsRejected() throws Exception {
        Files.writeString(root.resolve("secret.arrow"), "secret");
        for (String bad : new String[] {"..", ".", "../x", "a/b", "", "a\\b", "-x"}) {
            assertThatThrownBy(() -> client.fetch("127.0.0.1", server.port(), bad, 0, 0))
                    .isInstanceOf(ShuffleFetchException.class)
                    .hasMessageContaining("invalid block");
            assertThatThrownBy(() -> server.removeShuffle(bad)).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(root.resolve("secret.arrow")).exists();
    }

    @Test
    void closedPortGivesFetchException() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            port = socket.getLocalPort();
        }
        assertThatThrownBy(() -> client.fetch("127.0.0.1", port, "s1", 0, 1))
                .isInstanceOf(ShuffleFetchException.class)
                .hasMessageContaining("127.0.0.1:" + port)
                .hasMessageContaining("shuffle=s1 map=0 partition=1")
                .hasMessageContaining("cannot connect");
    }

    @Test
    void pooledConnectionToARestartedServerIsRetried() throws Exception {
        byte[] bytes = writeBlock("s2", 0, 0, 1000);
        assertThat(client.fetch("127.0.0.1", server.port(), "s2", 0, 0)).isEqualTo(bytes);
        int port = server.port();
        server.close();
        // Same port again: the client's pooled connection is dead and must be replaced transparently.
        server = new ShuffleServer("127.0.0.1", port, root).start();
        assertThat(client.fetch("127.0.0.1", port, "s2", 0, 0)).isEqualTo(bytes);
    }

    @Test
    void removeShuffleDeletesItsBlocksOnly() throws Exception {
        writeBlock("gone", 0, 0, 5);
        writeBlock("kept", 0, 0, 5);
        server.removeShuffle("gone");
        server.removeShuffle("never-existed");
        assertThat(root.resolve("gone")).doesNotExist();
        assertThat(root.resolve("kept")).isDirectory();
        assertThatThrownBy(() -> client.fetch("127.0.0.1", server.port(), "gone", 0, 0))
                .isInstanceOf(ShuffleFetchException.class);
    }

    @Test
    void closedClientAndServerRefuseWork() {
        client.close();
        client.close();
        assertThatThrownBy(() -> client.fetch("127.0.0.1", server.port(), "s", 0, 0))
                .isInstanceOf(IllegalStateException.class);
        server.close();
        assertThatThrownBy(server::start).isInstanceOf(IllegalStateException.class);
        ShuffleServer unstarted = new ShuffleServer("127.0.0.1", 0, root);
        assertThatThrownBy(unstarted::port).isInstanceOf(IllegalStateException.class);
        unstarted.close();
    }
}
