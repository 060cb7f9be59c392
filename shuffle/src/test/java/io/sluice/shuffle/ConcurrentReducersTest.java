package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Column;
import io.sluice.operators.MapStatus;
import io.sluice.operators.Partitioning;
import io.sluice.operators.TaskContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three workers' shuffle services on 127.0.0.1, each holding three map outputs; many reducers run
 * at once on all three workers, each reading its partition from every map output: local segments
 * from disk, the others over sockets, several requests in flight within the byte bound.
 */
class ConcurrentReducersTest {
    private static final int WORKERS = 3;
    private static final int MAPS_PER_WORKER = 3;
    private static final int PARTITIONS = 8;

    @TempDir
    Path dir;

    private RootAllocator root;
    private final List<ShuffleServer> servers = new ArrayList<>();
    private final List<ShuffleClient> clients = new ArrayList<>();
    private final List<ShuffleEnvironment> envs = new ArrayList<>();

    @BeforeEach
    void start() {
        root = new RootAllocator(1L << 30);
        String secret = "test-secret";
        for (int w = 0; w < WORKERS; w++) {
            Path local = dir.resolve("w" + w);
            ShuffleServer server = new ShuffleServer("127.0.0.1", 0, local,
                    ShuffleServer.Options.defaults().withSecret(secret)).start();
            ShuffleClient client = new ShuffleClient("w" + w, ShuffleClient.Options.defaults().withSecret(secret));
            servers.add(server);
            clients.add(client);
            envs.add(new ShuffleEnvironment("w" + w, "127.0.0.1", server.port(), local, client));
        }
    }

    @AfterEach
    void stop() {
        clients.forEach(ShuffleClient::close);
        servers.forEach(ShuffleServer::close);
        assertThat(root.getAllocatedMemory()).isZero();
        root.close();
    }

    /** Rows of map m, partition r: varied, some partitions empty, one segment much larger than the bound. */
    private static int rows(int map, int partition) {
        if ((map + partition) % 5 == 0) {
            return 0;
        }
        return map == 4 && partition == 3 ? 120_000 : 500 + 37 * map * partition;
    }

    @Test
    void manyConcurrentReducersReadExactlyTheirRows() throws Exception {
        List<MapStatus> statuses = new ArrayList<>();
        try (BufferAllocator writing = root.newChildAllocator("write", 0, 256L << 20)) {
            for (int m = 0; m < WORKERS * MAPS_PER_WORKER; m++) {
                ShuffleEnvironment env = envs.get(m % WORKERS);
                int[] counts = new int[PARTITIONS];
                for (int r = 0; r < PARTITIONS; r++) {
                    counts[r] = rows(m, r);
                }
                long[] lengths = MapOutputFixture.write(env.localDirectory(), "j-many", m, counts, writing,
                        ShuffleCompression.LZ4_FRAME);
                statuses.add(new MapStatus(env.workerId(), env.host(), env.port(), lengths));
            }
        }
        Partitioning hash = new Partitioning.Hash(List.of(new Column("id")), PARTITIONS);
        ShuffleReaderExec reader = new ShuffleReaderExec(MapOutputFixture.SCHEMA, "j-many", hash, statuses);
        // A small bound, so reducers queue requests; one segment (map 4, partition 3) is larger than it.
        ShuffleSettings settings = ShuffleSettings.defaults().withMaxInFlightBytes(256 << 10);
        ExecutorService pool = Executors.newFixedThreadPool(24);
        try {
            List<Future<ShuffleTaskMetrics>> tasks = new ArrayList<>();
            for (int round = 0; round < 3; round++) {
                for (int r = 0; r < PARTITIONS; r++) {
                    int partition = r;
                    ShuffleEnvironment env = envs.get((round + r) % WORKERS).withSettings(settings).forJob("j");
                    tasks.add(pool.submit(() -> reduce(reader, partition, env)));
                }
            }
            long local = 0;
            long remote = 0;
            for (Future<ShuffleTaskMetrics> task : tasks) {
                ShuffleTaskMetrics metrics = task.get();
                local += metrics.localSegments();
                remote += metrics.remoteSegments();
                assertThat(metrics.peakInFlightBytes()).isLessThanOrEqualTo(Math.max(256 << 10, maxSegment(statuses)));
            }
            assertThat(local).isPositive();
            assertThat(remote).isPositive();
            long served = servers.stream().mapToLong(ShuffleServer::blocksServed).sum();
            assertThat(served).isEqualTo(remote);
        } finally {
            pool.shutdownNow();
        }
    }

    private static long maxSegment(List<MapStatus> statuses) {
        long max = 0;
        for (MapStatus s : statuses) {
            for (long b : s.bytesPerPartition()) {
                max = Math.max(max, b);
            }
        }
        return max;
    }

    /** Reads one partition and checks it holds exactly the fixture's rows, in map order. */
    private ShuffleTaskMetrics reduce(ShuffleReaderExec reader, int partition, ShuffleEnvironment env) {
        try (BufferAllocator allocator = root.newChildAllocator("reduce-" + partition + "-" + env.workerId(), 0,
                64L << 20)) {
            TaskContext context = new TaskContext("t", allocator, 8192, Map.of(ShuffleEnvironment.class, env));
            int map = 0;
            int row = 0;
            long total = 0;
            try (BatchStream stream = reader.execute(partition, context)) {
                Batch batch;
                while ((batch = stream.next()) != null) {
                    try (Batch b = batch) {
                        Col ids = b.column(0);
                        for (int i = 0; i < b.rowCount(); i++) {
                            while (row >= rows(map, partition)) {
                                map++;
                                row = 0;
                            }
                            assertThat(ids.longs[i]).isEqualTo(MapOutputFixture.id(map, partition, row++));
                            total++;
                        }
                    }
                }
            }
            long expected = 0;
            for (int m = 0; m < WORKERS * MAPS_PER_WORKER; m++) {
                expected += rows(m, partition);
            }
            assertThat(total).isEqualTo(expected);
            assertThat(env.metrics().recordsRead()).isEqualTo(expected);
            assertThat(allocator.getAllocatedMemory()).isZero();
            return env.metrics();
        }
    }
}

