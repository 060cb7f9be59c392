package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Column;
import io.sluice.operators.MapStatus;
import io.sluice.operators.Partitioning;
import io.sluice.operators.TaskContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;

/** Two workers, each with its own shuffle server and directory; map tasks on both, reducers on w1. */
class ShuffleEndToEndTest extends TwoWorkerShuffleTest {
    static final Schema SCHEMA = Schema.of(
            new Field("id", DataType.INT64),
            new Field("k", DataType.INT64),
            new Field("s", DataType.UTF8),
            new Field("v", DataType.FLOAT64));

    private int taskCounter;

    /** Map partition p: batches of rows with ids from p * 1000; keys repeat across partitions; some NULL. */
    static ShuffleTestSource source(int failAfter) {
        List<List<Col[]>> partitions = new ArrayList<>();
        int[][] batchSizes = {{100, 1, 257}, {64, 300}};
        for (int p = 0; p < batchSizes.length; p++) {
            List<Col[]> batches = new ArrayList<>();
            long id = p * 1000L;
            for (int size : batchSizes[p]) {
                long[] ids = new long[size];
                long[] ks = new long[size];
                boolean[] kNulls = new boolean[size];
                String[] ss = new String[size];
                boolean[] sNulls = new boolean[size];
                double[] vs = new double[size];
                for (int i = 0; i < size; i++, id++) {
                    ids[i] = id;
                    ks[i] = id % 7;
                    kNulls[i] = id % 13 == 0;
                    ss[i] = "key-" + (id % 5) + "-é";
                    sNulls[i] = id % 11 == 0;
                    ss[i] = sNulls[i] ? null : ss[i];
                    vs[i] = id * 0.5;
                }
                batches.add(new Col[] {
                    Col.ofLongs(DataType.INT64, ids, null),
                    Col.ofLongs(DataType.INT64, ks, kNulls),
                    Col.ofStrings(ss, sNulls),
                    Col.ofDoubles(vs, null)});
            }
            partitions.add(batches);
        }
        return new ShuffleTestSource(SCHEMA, partitions, failAfter);
    }

    static int totalRows() {
        return 100 + 1 + 257 + 64 + 300;
    }

    private TaskContext task(ShuffleEnvironment env, BufferAllocator allocator) {
        return task(env, allocator, 8192);
    }

    private TaskContext task(ShuffleEnvironment env, BufferAllocator allocator, int batchSize) {
        return new TaskContext("task-" + taskCounter++, allocator, batchSize, Map.of(ShuffleEnvironment.class, env));
    }

    private MapStatus runMap(ShuffleWriterExec writer, int map, ShuffleEnvironment env) {
        return runMap(writer, map, env, 8192);
    }

    private MapStatus runMap(ShuffleWriterExec writer, int map, ShuffleEnvironment env, int batchSize) {
        try (BufferAllocator allocator = root.newChildAllocator("map-" + map, 0, 64L << 20)) {
            MapStatus status = writer.write(map, task(env, allocator, batchSize));
            assertThat(allocator.getAllocatedMemory()).isZero();
            return status;
        }
    }

    /** Batches and largest batch seen by the last {@link #runReduce}. */
    private int batchesRead;
    private int largestBatch;

    /**
     * Runs every reduce partition (on w1 unless told); returns, per partition, the rows as [id, k, s, v] lists.
     * Checks that each partition's rows come in map order and, within a map, in input order (ids
     * ascend).
     */
    private List<List<List<Object>>> runReduce(ShuffleReaderExec reader) {
        return runReduce(reader, env1);
    }

    private List<List<List<Object>>> runReduce(ShuffleReaderExec reader, ShuffleEnvironment env) {
        batchesRead = 0;
        largestBatch = 0;
        List<List<List<Object>>> out = new ArrayList<>();
        for (int r = 0; r < reader.properties().partitioning().partitionCount(); r++) {
            List<List<Object>> rows = new ArrayList<>();
            try (BufferAllocator allocator = root.newChildAllocator("reduce-" + r, 0, 64L << 20);
                    BatchStream stream = reader.execute(r, task(env, allocator))) {
                Batch batch;
                while ((batch = stream.next()) != null) {
                    try (Batch b = batch) {
                        batchesRead++;
                        largestBatch = Math.max(largestBatch, b.rowCount());
                        Col[] cols = b.columns();
                        for (int i = 0; i < b.rowCount(); i++) {
                            List<Object> row = new ArrayList<>();
                            for (Col c : cols) {
                                row.add(c.get(i));
                            }
                            rows.add(row);
                        }
                    }
                }
            }
            for (int i = 1; i < rows.size(); i++) {
                assertThat((Long) rows.get(i).get(0)).isGreaterThan((Long) rows.get(i - 1).get(0));
            }
            out.add(rows);
        }
        return out;
    }

    @Test
    void hashShuffleAcrossTwoWorkers() {
        Partitioning hash = new Partitioning.Hash(List.of(new Column("k"), new Column("s")), 5);
        ShuffleWriterExec writer = new ShuffleWriterExec(source(-1), hash, "j-q1-stage0");
        MapStatus m0 = runMap(writer, 0, env1);
        MapStatus m1 = runMap(writer, 1, env2);
        assertThat(m0.workerId()).isEqualTo("w1");
        assertThat(m0.port()).isEqualTo(server1.port());
        assertThat(m1.workerId()).isEqualTo("w2");
        assertThat(m1.port()).isEqualTo(server2.port());
        assertBlockFilesMatch(dir1, "j-q1-stage0", 0, m0);
        assertBlockFilesMatch(dir2, "j-q1-stage0", 1, m1);

        ShuffleReaderExec reader = new ShuffleReaderExec(SCHEMA, "j-q1-stage0", hash, List.of())
                .withMapOutputs(List.of(m0, m1));
        assertThat(reader.properties().partitioning()).isEqualTo(hash);
        List<List<List<Object>>> partitions = runReduce(reader);

        Set<Long> ids = new HashSet<>();
        Map<List<Object>, Integer> partitionOfKey = new HashMap<>();
        int total = 0;
        for (int r = 0; r < partitions.size(); r++) {
            for (List<Object> row : partitions.get(r)) {
                total++;
                long id = (Long) row.get(0);
                assertThat(ids.add(id)).as("row %d arrived twice", id).isTrue();
                // The row arrived intact.
                assertThat(row.get(1)).isEqualTo(id % 13 == 0 ? null : id % 7);
                assertThat(row.get(2)).isEqualTo(id % 11 == 0 ? null : "key-" + (id % 5) + "-é");
                assertThat(row.get(3)).isEqualTo(id * 0.5);
                Integer previous = partitionOfKey.put(List.of(String.valueOf(row.get(1)), String.valueOf(row.get(2))), r);
                assertThat(previous == null || previous == r).as("key of row %d in two partitions", id).isTrue();
            }
        }
        assertThat(total).isEqualTo(totalRows());
        assertThat(ids).hasSize(totalRows());
        assertThat(partitions).filteredOn(p -> !p.isEmpty()).hasSizeGreaterThan(1);
        // Slivers from the input batches were coalesced: one record batch per non-empty block.
        assertThat(batchesRead).isEqualTo(nonEmptyBlocks(m0) + nonEmptyBlocks(m1));

        // The reducers ran on w1: w2's segments came over the socket, w1's own from its disk.
        assertThat(server2.blocksServedTo()).containsOnlyKeys("w1");
        assertThat(server2.blocksServed()).isEqualTo(nonEmptyBlocks(m1));
        assertThat(server2.bytesServed()).isEqualTo(m1.totalBytes());
        assertThat(server1.blocksServed()).isZero();

        server2.removeShuffle("j-q1-stage0");
        assertThat(dir2.resolve("j-q1-stage0")).doesNotExist();
        assertThat(dir1.resolve("j-q1-stage0")).exists();
    }

    @Test
    void smallBatchSizeFlushesBuffersAndKeepsEveryRow() {
        Partitioning hash = new Partitioning.Hash(List.of(new Column("s")), 3);
        ShuffleWriterExec writer = new ShuffleWriterExec(source(-1), hash, "j-small");
        MapStatus m0 = runMap(writer, 0, env1, 7);
        MapStatus m1 = runMap(writer, 1, env2, 7);
        List<List<List<Object>>> parts = runReduce(new ShuffleReaderExec(SCHEMA, "j-small", hash, List.of(m0, m1)));
        Set<Long> ids = new HashSet<>();
        parts.forEach(p -> p.forEach(row -> assertThat(ids.add((Long) row.get(0))).isTrue()));
        assertThat(ids).hasSize(totalRows());
        assertThat(batchesRead).isGreaterThan(totalRows() / 300);
        assertThat(largestBatch).isLessThanOrEqualTo(300);
    }

    @Test
    void roundRobinAndSingleShuffles() {
        Partitioning rr = new Partitioning.RoundRobin(3);
        ShuffleWriterExec writer = new ShuffleWriterExec(source(-1), rr, "j-rr");
        MapStatus m0 = runMap(writer, 0, env1);
        MapStatus m1 = runMap(writer, 1, env2);
        List<List<List<Object>>> parts = runReduce(new ShuffleReaderExec(SCHEMA, "j-rr", rr, List.of(m0, m1)));
        int total = parts.stream().mapToInt(List::size).sum();
        assertThat(total).isEqualTo(totalRows());
        for (List<List<Object>> p : parts) {
            assertThat(p.size()).isBetween(totalRows() / 3 - 2, totalRows() / 3 + 2);
        }

        Partitioning single = new Partitioning.Single();
        ShuffleWriterExec gather = new ShuffleWriterExec(source(-1), single, "j-single");
        MapStatus s0 = runMap(gather, 0, env1);
        MapStatus s1 = runMap(gather, 1, env2);
        List<List<List<Object>>> one = runReduce(new ShuffleReaderExec(SCHEMA, "j-single", single, List.of(s0, s1)));
        assertThat(one).hasSize(1);
        // Map order is kept: map 0's rows, in order, then map 1's.
        List<Long> ids = one.get(0).stream().map(row -> (Long) row.get(0)).toList();
        List<Long> expected = new ArrayList<>();
        Stream.iterate(0L, i -> i + 1).limit(358).forEach(expected::add);
        Stream.iterate(1000L, i -> i + 1).limit(364).forEach(expected::add);
        assertThat(ids).containsExactlyElementsOf(expected);
    }

    @Test
    void emptyPartitionsAreNotWrittenNorFetched() throws Exception {
        // A constant key sends every row to one partition: the other three get no bytes and no fetch.
        Partitioning hash = new Partitioning.Hash(List.of(new io.sluice.logical.expr.Literal(1L, DataType.INT64)), 4);
        ShuffleWriterExec writer = new ShuffleWriterExec(source(-1), hash, "j-const");
        MapStatus m0 = runMap(writer, 0, env1);
        assertThat(nonEmptyBlocks(m0)).isEqualTo(1);
        try (Stream<Path> files = Files.list(dir1.resolve("j-const"))) {
            assertThat(files.map(f -> f.getFileName().toString()).toList())
                    .containsExactlyInAnyOrder("map-0.data", "map-0.index");
        }
        // Read by w2, so over the socket: one request, for the one non-empty segment.
        List<List<List<Object>>> parts = runReduce(new ShuffleReaderExec(SCHEMA, "j-const", hash, List.of(m0)), env2);
        assertThat(parts.stream().mapToInt(List::size).sum()).isEqualTo(358);
        assertThat(server1.blocksServed()).isEqualTo(1);
    }

    @Test
    void failedMapTaskLeavesNoFilesAndNoMemory() throws Exception {
        Partitioning hash = new Partitioning.Hash(List.of(new Column("k")), 4);
        ShuffleWriterExec writer = new ShuffleWriterExec(source(2), hash, "j-failing");
        try (BufferAllocator allocator = root.newChildAllocator("map", 0, 64L << 20)) {
            assertThatThrownBy(() -> writer.write(0, task(env1, allocator)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("failed on purpose");
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
        try (Stream<Path> files = Files.list(dir1.resolve("j-failing"))) {
            assertThat(files.toList()).isEmpty();
        }
    }

    @Test
    void anUnboundReaderAsksTheTasksLocatorForItsPartition() {
        Partitioning hash = new Partitioning.Hash(List.of(new Column("k")), 2);
        ShuffleReaderExec reader = new ShuffleReaderExec(SCHEMA, "j-unbound", hash, List.of());
        List<String> asked = new java.util.ArrayList<>();
        MapOutputLocator none = (jobId, shuffleId, partition) -> {
            asked.add(shuffleId + "/" + partition);
            return List.of();
        };
        try (BufferAllocator allocator = root.newChildAllocator("reduce", 0, 1 << 20)) {
            TaskContext withLocator = new TaskContext("task-" + taskCounter++, allocator, 8192,
                    Map.of(ShuffleEnvironment.class, env1, MapOutputLocator.class, none));
            assertThatThrownBy(() -> reader.execute(1, withLocator))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("j-unbound");
            assertThat(asked).containsExactly("j-unbound/1");
            // without a locator an unbound reader is a wiring bug
            assertThatThrownBy(() -> reader.execute(0, task(env1, allocator)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("MapOutputLocator");
        }
        assertThat(reader.describe()).isEqualTo("ShuffleReaderExec: shuffle=j-unbound");
        assertThat(reader.children()).isEmpty();
    }

    @Test
    void writerValidatesAndDescribesItself() {
        assertThatThrownBy(() -> new ShuffleWriterExec(source(-1), new Partitioning.Unknown(3), "x"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ShuffleWriterExec(source(-1), new Partitioning.Single(), "../etc"))
                .isInstanceOf(IllegalArgumentException.class);
        ShuffleWriterExec writer = new ShuffleWriterExec(source(-1), new Partitioning.Unknown(1), "j-ok");
        assertThat(writer.properties().partitioning()).isEqualTo(new Partitioning.Unknown(2));
        ShuffleWriterExec hashed = new ShuffleWriterExec(source(-1),
                new Partitioning.Hash(List.of(new Column("k")), 4), "j-s7");
        assertThat(hashed.describe()).isEqualTo("ShuffleWriterExec: shuffle=j-s7 partitioning=hash([k], 4)");
        try (BufferAllocator allocator = root.newChildAllocator("map", 0, 1 << 20)) {
            BatchStream out = hashed.execute(1, task(env2, allocator));
            assertThat(out.next()).isNull();
            out.close();
        }
        assertThat(dir2.resolve("j-s7")).isDirectory();
    }

    @Test
    void staleMapStatusIsDetected() {
        Partitioning single = new Partitioning.Single();
        ShuffleWriterExec writer = new ShuffleWriterExec(source(-1), single, "j-stale");
        MapStatus m0 = runMap(writer, 0, env1);
        MapStatus wrong = new MapStatus("w1", "127.0.0.1", server1.port(), new long[] {m0.bytesPerPartition()[0] + 1});
        ShuffleReaderExec reader = new ShuffleReaderExec(SCHEMA, "j-stale", single, List.of(wrong));
        try (BufferAllocator allocator = root.newChildAllocator("reduce", 0, 1 << 20);
                BatchStream stream = reader.execute(0, task(env1, allocator))) {
            assertThatThrownBy(stream::next).isInstanceOf(ShuffleFetchException.class)
                    .hasMessageContaining("map status recorded");
        }
    }

    private static long nonEmptyBlocks(MapStatus status) {
        long n = 0;
        for (long b : status.bytesPerPartition()) {
            if (b > 0) {
                n++;
            }
        }
        return n;
    }

    /** One data file whose size is the sum of the segments, one index file, nothing else. */
    private static void assertBlockFilesMatch(Path root, String shuffleId, int map, MapStatus status) {
        assertThat(ShuffleBlocks.dataFile(root, shuffleId, map)).hasSize(status.totalBytes());
        assertThat(ShuffleBlocks.indexFile(root, shuffleId, map)).exists();
    }
}
