package io.sluice.bench;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Column;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.MapStatus;
import io.sluice.operators.Partitioning;
import io.sluice.operators.TaskContext;
import io.sluice.shuffle.ShuffleClient;
import io.sluice.shuffle.ShuffleCompression;
import io.sluice.shuffle.ShuffleEnvironment;
import io.sluice.shuffle.ShuffleReaderExec;
import io.sluice.shuffle.ShuffleServer;
import io.sluice.shuffle.ShuffleSettings;
import io.sluice.shuffle.ShuffleWriterExec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The shuffle service on 127.0.0.1. Read the {@code mebibytes} secondary result of each
 * benchmark: MiB per second.
 *
 * <ul>
 *   <li>{@code fetch}: a reducer reads {@code copies} segments of {@code segmentMiB} MiB each
 *       (uncompressed: one map output written once, hard-linked as {@code copies} map outputs)
 *       from a shuffle server over a socket, decoding every record batch into Arrow vectors. At
 *       least 2 GiB move per invocation; with {@code segmentMiB=4608} a single segment is larger
 *       than 4 GiB (the "no 2 GiB limit" case).
 *   <li>{@code plainSocketCopy}: the same bytes of the same file sent by a bare
 *       {@code FileChannel.transferTo} server to a bare socket reader that discards them: the
 *       ceiling for {@code fetch}.
 *   <li>{@code write}: a map task hash-partitions {@code WRITE_ROWS} rows (int64, int64,
 *       float64: 24 bytes a row) into 16 partitions per {@code compression}; MiB of row data per
 *       second. Rows are generated once per trial and replayed from the heap.
 * </ul>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, batchSize = 1)
@Measurement(iterations = 3, batchSize = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED", "-Dio.netty.noUnsafe=false",
        "-Xmx3g"})
public class ShuffleBenchmark {
    static final int BATCH = 8192;
    static final long WRITE_ROWS = 8L << 20;
    static final Schema SCHEMA = OperatorBenchmark.SCHEMA;
    private static final long MIB = 1L << 20;

    /** Bytes moved, reported per second. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Moved {
        public double mebibytes;

        @Setup(Level.Iteration)
        public void reset() {
            mebibytes = 0;
        }
    }

    /** A shuffle server holding {@code copies} map outputs of one uncompressed segment each, and a plain copy server. */
    @State(Scope.Benchmark)
    public static class Served {
        /** A multiple of 256; 4608 makes one segment of more than 4 GiB. */
        @Param({"256"})
        public int segmentMiB;

        Path root;
        RootAllocator allocator;
        ShuffleServer server;
        ShuffleClient client;
        ShuffleReaderExec reader;
        ShuffleEnvironment readerEnv;
        long segmentBytes;
        int copies;
        PlainServer plain;

        @Setup(Level.Trial)
        public void setup() throws Exception {
            if (segmentMiB < 256 || segmentMiB % 256 != 0) {
                throw new IllegalArgumentException("segmentMiB must be a multiple of 256: " + segmentMiB);
            }
            root = Files.createTempDirectory("sluice-shuffle-bench");
            allocator = new RootAllocator(2L << 30);
            server = new ShuffleServer("127.0.0.1", 0, root).start();
            client = new ShuffleClient("bench");
            ShuffleEnvironment writerEnv = new ShuffleEnvironment("w", "127.0.0.1", server.port(), root, client)
                    .withSettings(ShuffleSettings.defaults().withCompression(ShuffleCompression.NONE)).forJob("b");
            // 256 MiB of rows, replayed for larger segments.
            ExecutionPlan source = new OperatorBenchmark.MemorySource(generate(256 * MIB / 24), segmentMiB / 256);
            ShuffleWriterExec writer = new ShuffleWriterExec(source, new Partitioning.Single(), "b-s0");
            MapStatus written;
            try (BufferAllocator task = allocator.newChildAllocator("write", 0, 1L << 30)) {
                written = writer.write(0, new TaskContext("write", task, BATCH, Map.of(ShuffleEnvironment.class, writerEnv)));
            }
            segmentBytes = written.bytesPerPartition()[0];
            copies = (int) Math.max(1, (2048 * MIB + segmentBytes - 1) / segmentBytes);
            Path dir = root.resolve("b-s0");
            List<MapStatus> statuses = new ArrayList<>();
            statuses.add(written);
            for (int m = 1; m < copies; m++) {
                Files.createLink(dir.resolve("map-" + m + ".data"), dir.resolve("map-0.data"));
                Files.createLink(dir.resolve("map-" + m + ".index"), dir.resolve("map-0.index"));
                statuses.add(written);
            }
            reader = new ShuffleReaderExec(SCHEMA, "b-s0", new Partitioning.Single(), statuses);
            // Not the server's own address, so every segment goes over the socket.
            readerEnv = new ShuffleEnvironment("r", "127.0.0.2", 1, root, client).forJob("b");
            plain = new PlainServer(dir.resolve("map-0.data"), segmentBytes);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            plain.close();
            client.close();
            server.close();
            allocator.close();
            deleteTree(root);
        }
    }

    @Benchmark
    public long fetch(Served s, Moved moved) {
        long rows = 0;
        try (BufferAllocator task = s.allocator.newChildAllocator("fetch", 0, 1L << 30);
                BatchStream stream = s.reader.execute(0,
                        new TaskContext("fetch", task, BATCH, Map.of(ShuffleEnvironment.class, s.readerEnv)))) {
            Batch b;
            while ((b = stream.next()) != null) {
                rows += b.rowCount();
                b.close();
            }
        }
        moved.mebibytes += (double) s.segmentBytes * s.copies / MIB;
        return rows;
    }

    @Benchmark
    public long plainSocketCopy(Served s, Moved moved) throws IOException {
        long total = 0;
        try (SocketChannel socket = SocketChannel.open(new InetSocketAddress("127.0.0.1", s.plain.port()))) {
            ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
            for (int c = 0; c < s.copies; c++) {
                socket.write(ByteBuffer.wrap(new byte[] {1}));
                long left = s.segmentBytes;
                while (left > 0) {
                    buffer.clear();
                    if (left < buffer.capacity()) {
                        buffer.limit((int) left);
                    }
                    int n = socket.read(buffer);
                    if (n < 0) {
                        throw new IOException("plain server closed early");
                    }
                    left -= n;
                    total += n;
                }
            }
        }
        moved.mebibytes += (double) total / MIB;
        return total;
    }

    /** Map task write throughput per compression setting. */
    @State(Scope.Benchmark)
    public static class Writing {
        @Param({"NONE", "LZ4_FRAME", "ZSTD"})
        public ShuffleCompression compression;

        Path root;
        RootAllocator allocator;
        ShuffleClient client;
        ShuffleEnvironment env;
        ShuffleWriterExec writer;

        @Setup(Level.Trial)
        public void setup() throws IOException {
            root = Files.createTempDirectory("sluice-shuffle-write-bench");
            allocator = new RootAllocator(2L << 30);
            client = new ShuffleClient("bench");
            env = new ShuffleEnvironment("w", "127.0.0.1", 1, root, client)
                    .withSettings(ShuffleSettings.defaults().withCompression(compression)).forJob("b");
            writer = new ShuffleWriterExec(new OperatorBenchmark.MemorySource(generate(WRITE_ROWS)),
                    new Partitioning.Hash(List.of(new Column("k")), 16), "b-w");
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            client.close();
            allocator.close();
            deleteTree(root);
        }
    }

    @Benchmark
    public long write(Writing w, Moved moved) {
        MapStatus status;
        try (BufferAllocator task = w.allocator.newChildAllocator("write", 0, 1L << 30)) {
            status = w.writer.write(0, new TaskContext("write", task, BATCH, Map.of(ShuffleEnvironment.class, w.env)));
        }
        moved.mebibytes += (double) WRITE_ROWS * 24 / MIB;
        return status.totalBytes();
    }

    static void deleteTree(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** {@code rows} rows (rounded to whole batches) of int64 k cycling through 1000 values, int64 v, float64 x. */
    static Col[][] generate(long rows) {
        Col[][] data = new Col[(int) Math.max(1, rows / BATCH)][];
        for (int b = 0; b < data.length; b++) {
            long[] k = new long[BATCH];
            long[] v = new long[BATCH];
            double[] x = new double[BATCH];
            for (int i = 0; i < BATCH; i++) {
                long r = (long) b * BATCH + i;
                k[i] = r % 1000;
                v[i] = r * 31 % 100_003;
                x[i] = (r % 9973) / 9973.0;
            }
            data[b] = new Col[] {Col.ofLongs(DataType.INT64, k, null), Col.ofLongs(DataType.INT64, v, null),
                Col.ofDoubles(x, null)};
        }
        return data;
    }

    /** Sends one file's first {@code length} bytes, zero-copy, for every byte a client sends. */
    static final class PlainServer implements AutoCloseable {
        private final ServerSocketChannel listener;
        private final Thread thread;

        PlainServer(Path file, long length) throws IOException {
            listener = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
            thread = new Thread(() -> serve(file, length), "plain-copy-server");
            thread.setDaemon(true);
            thread.start();
        }

        int port() throws IOException {
            return ((InetSocketAddress) listener.getLocalAddress()).getPort();
        }

        private void serve(Path file, long length) {
            try (FileChannel data = FileChannel.open(file, StandardOpenOption.READ)) {
                while (listener.isOpen()) {
                    try (SocketChannel socket = listener.accept()) {
                        ByteBuffer request = ByteBuffer.allocate(1);
                        while (socket.read(request.clear()) > 0) {
                            long sent = 0;
                            while (sent < length) {
                                sent += data.transferTo(sent, length - sent, socket);
                            }
                        }
                    }
                }
            } catch (IOException e) {
                if (listener.isOpen()) {
                    throw new UncheckedIOException(e);
                }
            }
        }

        @Override
        public void close() throws IOException {
            listener.close();
        }
    }
}
