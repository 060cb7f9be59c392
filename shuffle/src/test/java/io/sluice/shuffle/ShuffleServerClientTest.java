package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shuffle server and client over real sockets on 127.0.0.1, with real map output files. */
class ShuffleServerClientTest {
    private static final String JOB = "j";

    @TempDir
    Path root;

    private RootAllocator allocator;
    private ShuffleServer server;
    private ShuffleClient client;

    @BeforeEach
    void setUp() {
        allocator = new RootAllocator(512L << 20);
        server = new ShuffleServer("127.0.0.1", 0, root).start();
        client = new ShuffleClient("tester", Duration.ofSeconds(10));
    }

    @AfterEach
    void tearDown() {
        client.close();
        server.close();
        assertThat(allocator.getAllocatedMemory()).as("allocator empty afterwards").isZero();
        allocator.close();
    }

    private long[] write(String shuffleId, int map, int... rows) throws Exception {
        return MapOutputFixture.write(root, shuffleId, map, rows, allocator, ShuffleCompression.LZ4_FRAME);
    }

    /** Fetches a segment over the socket and checks every row is the fixture's; returns the row count. */
    private long fetchAndCheck(ShuffleClient with, int port, String shuffleId, int map, int partition, long length) {
        List<Batch> batches = with.fetchBatches("127.0.0.1", port, JOB, shuffleId, map, partition, length, allocator);
        long rows = 0;
        try {
            for (Batch b : batches) {
                Col ids = b.column(0);
                for (int i = 0; i < b.rowCount(); i++) {
                    assertThat(ids.longs[i]).isEqualTo(MapOutputFixture.id(map, partition, (int) rows++));
                }
            }
        } finally {
            batches.forEach(Batch::close);
        }
        return rows;
    }

    @Test
    void servesSegmentsAndCounts() throws Exception {
        long[] m0 = write("j-s1", 0, 10, 0, 20_000);
        assertThat(m0[1]).isZero();
        assertThat(fetchAndCheck(client, server.port(), "j-s1", 0, 0, m0[0])).isEqualTo(10);
        assertThat(fetchAndCheck(client, server.port(), "j-s1", 0, 2, m0[2])).isEqualTo(20_000);
        assertThat(fetchAndCheck(client, server.port(), "j-s1", 0, 1, 0)).isZero();
        assertThat(server.blocksServed()).isEqualTo(3);
        assertThat(server.bytesServed()).isEqualTo(m0[0] + m0[2]);
        assertThat(server.blocksServedTo()).containsEntry("tester", 3L).hasSize(1);
        assertThat(server.connectionsAccepted()).as("the client reuses its connection").isEqualTo(1);
    }

    @Test
    void everyCompressionSettingRoundTrips() throws Exception {
        for (ShuffleCompression c : ShuffleCompression.values()) {
            long[] lengths = MapOutputFixture.write(root, "j-c" + c.ordinal(), 0, new int[] {5000}, allocator, c);
            assertThat(fetchAndCheck(client, server.port(), "j-c" + c.ordinal(), 0, 0, lengths[0])).isEqualTo(5000);
        }
        assertThat(ShuffleSettingsDeclaration.COMPRESSION.parse("ZSTD")).isEqualTo(ShuffleCompression.ZSTD);
        assertThatThrownBy(() -> ShuffleSettingsDeclaration.COMPRESSION.parse("gzip")).hasMessageContaining("sluice.shuffle.compression");
    }

    @Test
    void missingBlockNamesBlockAndServer() throws Exception {
        String address = "127.0.0.1:" + server.port();
        assertThatThrownBy(() -> fetchAndCheck(client, server.port(), "j-s9", 4, 2, 100))
                .isInstanceOf(ShuffleFetchException.class)
                .hasMessageContaining("shuffle=j-s9 map=4 partition=2")
                .hasMessageContaining("no block")
                .hasMessageContaining(address)
                .satisfies(e -> {
                    ShuffleFetchException f = (ShuffleFetchException) e;
                    assertThat(f.shuffleId()).isEqualTo("j-s9");
                    assertThat(f.map()).isEqualTo(4);
                    assertThat(f.partition()).isEqualTo(2);
                    assertThat(f.port()).isEqualTo(server.port());
                });
        assertThat(server.blocksServed()).isZero();
        // The connection survives an error answer and serves the next request.
        long[] lengths = write("j-s9", 4, 0, 0, 100);
        assertThat(fetchAndCheck(client, server.port(), "j-s9", 4, 2, lengths[2])).isEqualTo(100);
        assertThat(server.connectionsAccepted()).isEqualTo(1);
    }

    @Test
    void anotherJobsBlockIsRefused() throws Exception {
        long[] lengths = write("j-s1", 0, 10);
        assertThatThrownBy(() -> client.fetchBatches("127.0.0.1", server.port(), "other", "j-s1", 0, 0, lengths[0],
                allocator)).isInstanceOf(ShuffleFetchException.class).hasMessageContaining("does not belong to job 'other'");
    }

    @Test
    void pathTraversalIsRejected() throws Exception {
        Files.writeString(root.resolve("secret.arrow"), "secret");
        for (String bad : new String[] {"..", ".", "../x", "a/b", "", "a\\b", "-x"}) {
            assertThatThrownBy(() -> fetchAndCheck(client, server.port(), bad, 0, 0, 1))
                    .isInstanceOf(ShuffleFetchException.class)
                    .hasMessageContaining("invalid block");
            assertThatThrownBy(() -> server.removeShuffle(bad)).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(root.resolve("secret.arrow")).exists();
    }

    @Test
    void closedPortGivesFetchExceptionAfterRetries() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = socket.getLocalPort();
        }
        assertThatThrownBy(() -> fetchAndCheck(client, port, "j-s1", 0, 1, 1))
                .isInstanceOf(ShuffleFetchException.class)
                .hasMessageContaining("127.0.0.1:" + port)
                .hasMessageContaining("shuffle=j-s1 map=0 partition=1")
                .hasMessageContaining("cannot connect")
                .hasMessageContaining("after 4 attempts")
                .satisfies(e -> assertThat(((ShuffleFetchException) e).serverLost()).isTrue());
    }

    @Test
    void pooledConnectionToARestartedServerIsRetried() throws Exception {
        long[] lengths = write("j-s2", 0, 1000);
        assertThat(fetchAndCheck(client, server.port(), "j-s2", 0, 0, lengths[0])).isEqualTo(1000);
        int port = server.port();
        server.close();
        // Same port again: the client's pooled connection is dead and must be replaced transparently.
        server = new ShuffleServer("127.0.0.1", port, root).start();
        assertThat(root.resolve("j-s2")).as("a starting server removes stale shuffles").doesNotExist();
        long[] again = write("j-s2", 0, 1000);
        assertThat(fetchAndCheck(client, port, "j-s2", 0, 0, again[0])).isEqualTo(1000);
    }

    @Test
    void flippedByteInsideASegmentIsAFetchFailure() throws Exception {
        long[] lengths = MapOutputFixture.write(root, "j-flip", 0, new int[] {2000, 3000}, allocator,
                ShuffleCompression.NONE);
        Path data = ShuffleBlocks.dataFile(root, "j-flip", 0);
        // A byte in the middle of partition 1's segment: inside column data, which decodes without complaint.
        long position = lengths[0] + lengths[1] - 200;
        flipByte(data, position);
        assertThat(fetchAndCheck(client, server.port(), "j-flip", 0, 0, lengths[0])).isEqualTo(2000);
        assertThatThrownBy(() -> fetchAndCheck(client, server.port(), "j-flip", 0, 1, lengths[1]))
                .isInstanceOf(ShuffleFetchException.class)
                .hasMessageContaining("shuffle=j-flip map=0 partition=1")
                .hasMessageContaining("127.0.0.1:" + server.port())
                .hasMessageContaining("checksum mismatch")
                .satisfies(e -> assertThat(((ShuffleFetchException) e).serverLost()).as("only this output is lost").isFalse());
        // The same corruption read from local disk is caught too.
        BlockLocation block = new BlockLocation("127.0.0.1", server.port(), "j-flip", 0, 1);
        try (SegmentDecoder local = LocalSegments.open(root, block, lengths[1], MapOutputFixture.SCHEMA, allocator)) {
            assertThatThrownBy(() -> {
                Batch b;
                while ((b = local.next()) != null) {
                    b.close();
                }
            }).isInstanceOf(ShuffleFetchException.class).hasMessageContaining("checksum mismatch");
        }
    }

    @Test
    void truncatedDataFileIsAFetchFailure() throws Exception {
        long[] lengths = write("j-trunc", 0, 2000, 3000);
        try (FileChannel channel = FileChannel.open(ShuffleBlocks.dataFile(root, "j-trunc", 0), StandardOpenOption.WRITE)) {
            channel.truncate(lengths[0] + lengths[1] / 2);
        }
        assertThatThrownBy(() -> fetchAndCheck(client, server.port(), "j-trunc", 0, 1, lengths[1]))
                .isInstanceOf(ShuffleFetchException.class)
                .hasMessageContaining("shuffle=j-trunc map=0 partition=1");
        Files.delete(ShuffleBlocks.indexFile(root, "j-trunc", 0));
        assertThatThrownBy(() -> fetchAndCheck(client, server.port(), "j-trunc", 0, 0, lengths[0]))
                .isInstanceOf(ShuffleFetchException.class).hasMessageContaining("no block");
    }

    @Test
    void serverClosedMidStreamIsAFetchFailure() throws Exception {
        long[] lengths = MapOutputFixture.write(root, "j-big", 0, new int[] {1_500_000}, allocator,
                ShuffleCompression.NONE);
        assertThat(lengths[0]).isGreaterThan(8L * RemoteSegment.HIGH_WATER);
        BlockLocation block = new BlockLocation("127.0.0.1", server.port(), "j-big", 0, 0);
        try (SegmentDecoder decoder = client.open(block, JOB, lengths[0], MapOutputFixture.SCHEMA, allocator)) {
            // the header came; the segment is checked whole before its first batch, and the rest never comes
            server.close();
            assertThatThrownBy(() -> {
                Batch b;
                while ((b = decoder.next()) != null) {
                    b.close();
                }
            }).isInstanceOf(ShuffleFetchException.class)
                    .hasMessageContaining("shuffle=j-big map=0 partition=0")
                    .hasMessageContaining("127.0.0.1:" + block.port())
                    .satisfies(e -> assertThat(((ShuffleFetchException) e).serverLost()).isTrue());
        }
    }

    @Test
    void secretIsRequiredAndChecked() throws Exception {
        server.close();
        server = new ShuffleServer("127.0.0.1", 0, root, ShuffleServer.Options.defaults().withSecret("s3cret")).start();
        long[] lengths = write("j-auth", 0, 100);
        ShuffleClient.Options base = ShuffleClient.Options.defaults().withTimeout(Duration.ofSeconds(10));
        try (ShuffleClient right = new ShuffleClient("right", base.withSecret("s3cret"));
                ShuffleClient wrong = new ShuffleClient("wrong", base.withSecret("guess"))) {
            assertThat(fetchAndCheck(right, server.port(), "j-auth", 0, 0, lengths[0])).isEqualTo(100);
            assertThatThrownBy(() -> fetchAndCheck(wrong, server.port(), "j-auth", 0, 0, lengths[0]))
                    .isInstanceOf(ShuffleFetchException.class).hasMessageContaining("wrong secret");
            assertThatThrownBy(() -> fetchAndCheck(client, server.port(), "j-auth", 0, 0, lengths[0]))
                    .isInstanceOf(ShuffleFetchException.class).hasMessageContaining("requires authentication");
        }
        // A raw client that skips the handshake and asks straight away is refused and cut off.
        try (RawConnection raw = new RawConnection(server.port())) {
            raw.sendFetch("j-auth", 0, 0);
            assertThat(raw.readError()).contains("requires authentication");
        }
        assertThat(server.blocksServed()).isEqualTo(1);
        assertThat(server.authFailures()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void pipeliningClientHoldsOneResponseAndOthersStillFetch() throws Exception {
        long[] lengths = MapOutputFixture.write(root, "j-pipe", 0, new int[] {400_000}, allocator,
                ShuffleCompression.NONE);
        long baseline = openFileDescriptors();
        try (RawConnection greedy = new RawConnection(server.port())) {
            for (int i = 0; i < 10_000; i++) {
                greedy.sendFetch("j-pipe", 0, 0);
            }
            greedy.flush();
            Thread.sleep(300);
            assertThat(server.responsesInFlight()).isLessThanOrEqualTo(1);
            assertThat(openFileDescriptors() - baseline).as("extra open files while a client pipelines")
                    .isLessThanOrEqualTo(3);
            long start = System.nanoTime();
            assertThat(fetchAndCheck(client, server.port(), "j-pipe", 0, 0, lengths[0])).isEqualTo(400_000);
            // starved behind the greedy client's 10,000 queued responses (GBs), it would take minutes;
            // the bound leaves room for a loaded machine
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
        }
    }

    @Test
    void connectionsBeyondTheCapGetBusy() throws Exception {
        server.close();
        int cap = 8;
        server = new ShuffleServer("127.0.0.1", 0, root,
                new ShuffleServer.Options(null, cap, Duration.ofMinutes(1), 2)).start();
        long[] lengths = write("j-busy", 0, 50);
        ShuffleClient.Options noRetry = ShuffleClient.Options.defaults().withConnectRetries(0);
        int threads = 200;
        ExecutorService pool = Executors.newFixedThreadPool(64);
        List<ShuffleClient> clients = new ArrayList<>();
        try {
            List<Future<String>> outcomes = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                ShuffleClient c = new ShuffleClient("c" + i, noRetry);
                clients.add(c);
                outcomes.add(pool.submit(() -> {
                    try {
                        fetchAndCheck(c, server.port(), "j-busy", 0, 0, lengths[0]);
                        return "ok";
                    } catch (ShuffleFetchException e) {
                        return e.getMessage().contains("is busy") ? "busy" : e.getMessage();
                    }
                }));
            }
            int ok = 0;
            for (Future<String> f : outcomes) {
                String outcome = f.get();
                assertThat(outcome).isIn("ok", "busy");
                ok += outcome.equals("ok") ? 1 : 0;
            }
            assertThat(ok).isPositive();
            assertThat(ok + server.rejectedBusy()).isEqualTo(threads);
        } finally {
            pool.shutdownNow();
            clients.forEach(ShuffleClient::close);
        }
        // Deterministically: with the cap held by idle raw connections, the next client is told "busy".
        List<RawConnection> held = new ArrayList<>();
        try {
            for (int i = 0; i < cap; i++) {
                held.add(new RawConnection(server.port()));
            }
            try (ShuffleClient late = new ShuffleClient("late", noRetry)) {
                assertThatThrownBy(() -> fetchAndCheck(late, server.port(), "j-busy", 0, 0, lengths[0]))
                        .isInstanceOf(ShuffleFetchException.class).hasMessageContaining("is busy");
            }
        } finally {
            for (RawConnection c : held) {
                c.close();
            }
        }
    }

    @Test
    void thousandConcurrentConnectionsEachSucceedOrGetBusy() throws Exception {
        server.close();
        server = new ShuffleServer("127.0.0.1", 0, root,
                new ShuffleServer.Options(null, 100, Duration.ofMinutes(1), 2)).start();
        long[] lengths = write("j-many", 0, 50);
        byte[] expected = new byte[(int) lengths[0]];
        try (FileChannel data = FileChannel.open(ShuffleBlocks.dataFile(root, "j-many", 0))) {
            data.read(ByteBuffer.wrap(expected), 0);
        }
        List<Socket> sockets = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(64);
        try {
            for (int i = 0; i < 1000; i++) {
                Socket socket = new Socket("127.0.0.1", server.port());
                socket.setSoTimeout(10_000);
                sockets.add(socket);
            }
            List<Future<String>> outcomes = new ArrayList<>();
            for (Socket socket : sockets) {
                outcomes.add(pool.submit(() -> fetchRaw(socket, expected)));
            }
            int ok = 0;
            int busy = 0;
            for (Future<String> f : outcomes) {
                String outcome = f.get();
                assertThat(outcome).isIn("ok", "busy");
                ok += outcome.equals("ok") ? 1 : 0;
                busy += outcome.equals("busy") ? 1 : 0;
            }
            assertThat(ok).isGreaterThanOrEqualTo(100);
            assertThat(busy).isPositive().isEqualTo(server.rejectedBusy());
        } finally {
            pool.shutdownNow();
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    /** One raw exchange: "ok" when the segment arrived byte for byte, "busy" when refused so. */
    private static String fetchRaw(Socket socket, byte[] expected) throws Exception {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte type = in.readByte();
        if (type == ShuffleProtocol.ERROR) {
            byte[] message = new byte[in.readInt()];
            in.readFully(message);
            String text = new String(message, java.nio.charset.StandardCharsets.UTF_8);
            return text.contains("is busy") ? "busy" : text;
        }
        in.readFully(new byte[ShuffleProtocol.HELLO_BYTES - 1]);
        ByteBuf frame = ShuffleProtocol.encodeRequest(UnpooledByteBufAllocator.DEFAULT,
                new ShuffleProtocol.Request("raw", JOB, "j-many", 0, 0));
        byte[] request = new byte[frame.readableBytes()];
        frame.readBytes(request);
        frame.release();
        socket.getOutputStream().write(request);
        assertThat(in.readByte()).isEqualTo(ShuffleProtocol.SEGMENT);
        long length = in.readLong();
        in.readLong();
        in.readInt();
        byte[] body = new byte[(int) length];
        in.readFully(body);
        return java.util.Arrays.equals(body, expected) ? "ok" : "wrong bytes";
    }

    @Test
    void removeShuffleDeletesItsBlocksOnly() throws Exception {
        write("j-gone", 0, 5);
        long[] kept = write("j-kept", 0, 5);
        server.removeShuffle("j-gone");
        server.removeShuffle("never-existed");
        assertThat(root.resolve("j-gone")).doesNotExist();
        assertThat(fetchAndCheck(client, server.port(), "j-kept", 0, 0, kept[0])).isEqualTo(5);
        assertThatThrownBy(() -> fetchAndCheck(client, server.port(), "j-gone", 0, 0, kept[0]))
                .isInstanceOf(ShuffleFetchException.class);
    }

    @Test
    void nativeEpollIsUsedOnLinuxX86() {
        assumeTrue(System.getProperty("os.name").equals("Linux") && System.getProperty("os.arch").equals("amd64"));
        assumeTrue(System.getProperty("sluice.shuffle.transport") == null);
        assertThat(ShuffleTransport.name()).isEqualTo("epoll");
    }

    @Test
    void startingOnAFixedDirectoryRemovesStaleShufflesOnly() throws Exception {
        write("j-old", 0, 10, 20);
        Files.writeString(root.resolve("j-old").resolve("map-1.data.123.tmp"), "partial");
        Files.createDirectories(root.resolve("notes"));
        Files.writeString(root.resolve("notes").resolve("readme.txt"), "not a shuffle");
        Files.writeString(root.resolve("map-0.data"), "a file at the root is not a shuffle directory");
        server.close();
        server = new ShuffleServer("127.0.0.1", 0, root).start();
        assertThat(root.resolve("j-old")).doesNotExist();
        assertThat(root.resolve("notes").resolve("readme.txt")).exists();
        assertThat(root.resolve("map-0.data")).exists();
    }

    @Test
    void closedClientAndServerRefuseWork() {
        client.close();
        client.close();
        assertThatThrownBy(() -> fetchAndCheck(client, server.port(), "j-s", 0, 0, 1))
                .isInstanceOf(IllegalStateException.class);
        server.close();
        assertThatThrownBy(server::start).isInstanceOf(IllegalStateException.class);
        ShuffleServer unstarted = new ShuffleServer("127.0.0.1", 0, root);
        assertThatThrownBy(unstarted::port).isInstanceOf(IllegalStateException.class);
        unstarted.close();
    }

    /**
     * A worker killed with its machine or container never closes its connections: a read waiting
     * on it would wait out the I/O timeout. Once told the server is lost, the client fails that
     * read at once as a lost server, and later reads without connecting; other servers still serve.
     */
    @Test
    void readsFromALostServerFailAtOnceInsteadOfWaitingOutTheTimeout() throws Exception {
        ExecutorService reader = Executors.newSingleThreadExecutor();
        try (SilentServer silent = new SilentServer()) {
            Future<Long> waiting = reader.submit(() -> fetchAndCheck(client, silent.port(), "j-s1", 0, 0, 100));
            assertThat(silent.requested.await(10, java.util.concurrent.TimeUnit.SECONDS))
                    .as("the request reached the server").isTrue();
            long start = System.nanoTime();
            client.serverLost("127.0.0.1", silent.port());
            assertThatThrownBy(() -> waiting.get(5, java.util.concurrent.TimeUnit.SECONDS))
                    .cause().isInstanceOf(ShuffleFetchException.class)
                    .hasMessageContaining("127.0.0.1:" + silent.port())
                    .hasMessageContaining("left the cluster")
                    .satisfies(e -> assertThat(((ShuffleFetchException) e).serverLost()).isTrue());
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("well within the 10 s I/O timeout")
                    .isLessThan(Duration.ofSeconds(3));

            assertThatThrownBy(() -> fetchAndCheck(client, silent.port(), "j-s1", 0, 1, 100))
                    .isInstanceOf(ShuffleFetchException.class).hasMessageContaining("left the cluster")
                    .satisfies(e -> assertThat(((ShuffleFetchException) e).serverLost()).isTrue());
            assertThat(silent.accepted.get()).as("no new connection to a lost server").isEqualTo(1);
            long[] lengths = write("j-s2", 0, 100);
            assertThat(fetchAndCheck(client, server.port(), "j-s2", 0, 0, lengths[0])).isEqualTo(100);
        } finally {
            reader.shutdownNow();
        }
    }

    private static void flipByte(Path file, long position) throws Exception {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, position);
            one.put(0, (byte) (one.get(0) ^ 0x5a)).rewind();
            channel.write(one, position);
        }
    }

    private static long openFileDescriptors() throws Exception {
        try (var files = Files.list(Path.of("/proc/self/fd"))) {
            return files.count();
        }
    }

    /**
     * Accepts connections, greets them (no secret asked) and then never answers nor closes, as a
     * peer whose machine vanished looks to the client.
     */
    private static final class SilentServer implements AutoCloseable {
        private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        private final List<Socket> held = java.util.Collections.synchronizedList(new ArrayList<>());
        final java.util.concurrent.atomic.AtomicInteger accepted = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.CountDownLatch requested = new java.util.concurrent.CountDownLatch(1);
        private final Thread acceptor;

        SilentServer() throws Exception {
            acceptor = new Thread(() -> {
                try {
                    while (true) {
                        Socket s = socket.accept();
                        accepted.incrementAndGet();
                        held.add(s);
                        byte[] hello = new byte[ShuffleProtocol.HELLO_BYTES];
                        hello[0] = ShuffleProtocol.HELLO;
                        s.getOutputStream().write(hello);
                        s.getOutputStream().flush();
                        s.setSoTimeout(10_000);
                        if (s.getInputStream().read() >= 0) {
                            requested.countDown();
                        }
                    }
                } catch (Exception closed) {
                    // the test is over
                }
            }, "silent-shuffle-server");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        @Override
        public void close() throws Exception {
            socket.close();
            synchronized (held) {
                for (Socket s : held) {
                    s.close();
                }
            }
            acceptor.join(10_000);
        }
    }

    /** A bare socket speaking the protocol without any help: reads the HELLO, then writes raw frames. */
    private static final class RawConnection implements AutoCloseable {
        private final Socket socket;
        private final OutputStream out;
        private final DataInputStream in;

        RawConnection(int port) throws Exception {
            socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(10_000);
            out = new java.io.BufferedOutputStream(socket.getOutputStream(), 1 << 16);
            in = new DataInputStream(socket.getInputStream());
            in.readFully(new byte[ShuffleProtocol.HELLO_BYTES]);
        }

        void sendFetch(String shuffleId, int map, int partition) throws Exception {
            ByteBuf frame = ShuffleProtocol.encodeRequest(UnpooledByteBufAllocator.DEFAULT,
                    new ShuffleProtocol.Request("raw", JOB, shuffleId, map, partition));
            try {
                byte[] bytes = new byte[frame.readableBytes()];
                frame.readBytes(bytes);
                out.write(bytes);
            } finally {
                frame.release();
            }
        }

        void flush() throws Exception {
            out.flush();
        }

        String readError() throws Exception {
            out.flush();
            assertThat(in.readByte()).isEqualTo(ShuffleProtocol.ERROR);
            byte[] message = new byte[in.readInt()];
            in.readFully(message);
            return new String(message, java.nio.charset.StandardCharsets.UTF_8);
        }

        @Override
        public void close() throws Exception {
            socket.close();
        }
    }
}
