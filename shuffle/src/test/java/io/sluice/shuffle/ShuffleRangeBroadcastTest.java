package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.KeyOrder;
import io.sluice.operators.MapStatus;
import io.sluice.operators.Partitioning;
import io.sluice.operators.RangeBoundaries;
import io.sluice.operators.SplitPoints;
import io.sluice.operators.TaskContext;
import io.sluice.operators.basic.SampleExec;
import io.sluice.testfixtures.HeapColumns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;

/**
 * Range and broadcast shuffles across two workers: split points from a sample of the input, rows
 * placed by range, read back in order; a broadcast read whole by every consumer partition.
 */
class ShuffleRangeBroadcastTest extends TwoWorkerShuffleTest {
    private int taskCounter;

    private TaskContext task(ShuffleEnvironment env, BufferAllocator allocator) {
        return new TaskContext("task-" + taskCounter++, allocator, 8192, Map.of(ShuffleEnvironment.class, env));
    }

    private MapStatus runMap(ShuffleWriterExec writer, int map, ShuffleEnvironment env) {
        try (BufferAllocator allocator = root.newChildAllocator("map-" + map, 0, 64L << 20)) {
            MapStatus status = writer.write(map, task(env, allocator));
            assertThat(allocator.getAllocatedMemory()).isZero();
            return status;
        }
    }

    /** Runs reduce partition {@code r} on w1: the rows as their columns' values. */
    private List<List<Object>> read(ShuffleReaderExec reader, int r) {
        List<List<Object>> rows = new ArrayList<>();
        try (BufferAllocator allocator = root.newChildAllocator("reduce-" + r, 0, 64L << 20);
                BatchStream stream = reader.execute(r, task(env1, allocator))) {
            for (Batch next = stream.next(); next != null; next = stream.next()) {
                try (Batch b = next) {
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
        return rows;
    }

    /** Split points from a sample of every map partition of the test source, as the scheduler would compute them. */
    private List<List<Object>> sampleBoundaries(List<SortKey> keys, int partitions) {
        SampleExec sample = new SampleExec(ShuffleEndToEndTest.source(-1), keys, 100);
        List<Col[]> samples = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            try (BufferAllocator allocator = root.newChildAllocator("sample-" + p, 0, 16L << 20);
                    BatchStream stream = sample.execute(p, task(env1, allocator))) {
                for (Batch next = stream.next(); next != null; next = stream.next()) {
                    try (Batch b = next) {
                        samples.add(java.util.Arrays.copyOf(b.columns(), keys.size())); // the keys, not the weight
                    }
                }
            }
        }
        return RangeBoundaries.compute(samples, keys, partitions);
    }

    /**
     * Shuffles the test source by range on {@code keys} into {@code n} partitions and checks: every
     * row arrives once; equal keys share a partition; each partition's keys sort before or equal
     * to the next one's; within a partition rows keep map order.
     */
    private List<List<List<Object>>> rangeShuffle(String id, List<SortKey> keys, int[] keyColumns, int n) {
        List<List<Object>> boundaries = sampleBoundaries(keys, n);
        Partitioning.Range range = new Partitioning.Range(keys, SplitPoints.unresolved(id), n).withBoundaries(boundaries);
        ShuffleWriterExec writer = new ShuffleWriterExec(ShuffleEndToEndTest.source(-1), range, id);
        MapStatus m0 = runMap(writer, 0, env1);
        MapStatus m1 = runMap(writer, 1, env2);
        ShuffleReaderExec reader = new ShuffleReaderExec(ShuffleEndToEndTest.SCHEMA, id, range, List.of(m0, m1));
        assertThat(reader.properties().partitioning()).isEqualTo(range);

        List<List<List<Object>>> partitions = new ArrayList<>();
        Set<Long> ids = new HashSet<>();
        Map<List<Object>, Integer> partitionOfKey = new HashMap<>();
        for (int r = 0; r < n; r++) {
            List<List<Object>> rows = read(reader, r);
            partitions.add(rows);
            for (List<Object> row : rows) {
                assertThat(ids.add((Long) row.get(0))).isTrue();
                List<Object> key = new ArrayList<>();
                for (int c : keyColumns) {
                    key.add(row.get(c));
                }
                Integer previous = partitionOfKey.put(key, r);
                assertThat(previous == null || previous == r).as("key %s in two partitions", key).isTrue();
            }
        }
        assertThat(ids).hasSize(ShuffleEndToEndTest.totalRows());
        KeyOrder order = new KeyOrder(keys);
        Schema keySchema = Schema.of(Arrays.stream(keyColumns).mapToObj(ShuffleEndToEndTest.SCHEMA::field)
                .toArray(Field[]::new));
        List<Col[]> keyRows = new ArrayList<>();
        for (List<List<Object>> rows : partitions) {
            keyRows.add(HeapColumns.of(keySchema, rows.stream()
                    .map(row -> Arrays.stream(keyColumns).mapToObj(row::get).toArray()).toList()));
        }
        for (int r = 0; r + 1 < n; r++) {
            Col[] here = keyRows.get(r);
            for (int q = r + 1; q < n; q++) {
                Col[] later = keyRows.get(q);
                for (int i = 0; i < here[0].length; i++) {
                    for (int j = 0; j < later[0].length; j++) {
                        assertThat(order.compare(here, i, later, j)).as("partition %d before %d", r, q).isNegative();
                    }
                }
            }
        }
        return partitions;
    }

    @Test
    void rangeShuffleOnALongKeyPutsNullsLast() {
        List<SortKey> keys = List.of(SortKey.asc(new Column("k")));
        List<List<List<Object>>> parts = rangeShuffle("j-range-k", keys, new int[] {1}, 4);
        // 7 distinct keys and NULL over 4 partitions: all used; the NULLs are in the last one.
        assertThat(parts).allSatisfy(p -> assertThat(p).isNotEmpty());
        assertThat(parts.get(3)).anySatisfy(row -> assertThat(row.get(1)).isNull());
    }

    @Test
    void rangeShuffleOnDescendingStringAndMultiColumnKeys() {
        rangeShuffle("j-range-s", List.of(SortKey.desc(new Column("s"))), new int[] {2}, 3);
        rangeShuffle("j-range-ks", List.of(SortKey.asc(new Column("k")), new SortKey(new Column("s"), false, true)),
                new int[] {1, 2}, 6);
    }

    @Test
    void fewerBoundariesLeaveTheLastPartitionsEmpty() {
        List<SortKey> keys = List.of(SortKey.asc(new Column("k")));
        Partitioning.Range range = new Partitioning.Range(keys, new SplitPoints("j-few", List.of(List.of(3L))), 4);
        ShuffleWriterExec writer = new ShuffleWriterExec(ShuffleEndToEndTest.source(-1), range, "j-few");
        MapStatus m0 = runMap(writer, 0, env1);
        assertThat(m0.bytesPerPartition()[0]).isPositive();
        assertThat(m0.bytesPerPartition()[1]).isPositive();
        assertThat(m0.bytesPerPartition()[2]).isZero();
        assertThat(m0.bytesPerPartition()[3]).isZero();
        ShuffleReaderExec reader = new ShuffleReaderExec(ShuffleEndToEndTest.SCHEMA, "j-few", range, List.of(m0));
        assertThat(read(reader, 0)).allSatisfy(row -> assertThat((Long) row.get(1)).isLessThanOrEqualTo(3L));
        assertThat(read(reader, 1)).allSatisfy(row -> assertThat(row.get(1) == null || (Long) row.get(1) > 3L).isTrue());
    }

    @Test
    void unresolvedSplitPointsFailBeforeWritingAnything() throws Exception {
        Partitioning.Range range = new Partitioning.Range(List.of(SortKey.asc(new Column("k"))),
                SplitPoints.unresolved("join-7"), 4);
        ShuffleWriterExec writer = new ShuffleWriterExec(ShuffleEndToEndTest.source(-1), range, "j-unresolved");
        try (BufferAllocator allocator = root.newChildAllocator("map", 0, 16L << 20)) {
            assertThatThrownBy(() -> writer.write(0, task(env1, allocator)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("unresolved split points 'join-7'");
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
        try (Stream<Path> files = Files.list(dir1.resolve("j-unresolved"))) {
            assertThat(files.toList()).isEmpty();
        }
    }

    @Test
    void broadcastIsReadWholeByEveryConsumerPartition() {
        Partitioning broadcast = new Partitioning.Broadcast();
        ShuffleWriterExec writer = new ShuffleWriterExec(ShuffleEndToEndTest.source(-1), broadcast, "j-bc");
        MapStatus m0 = runMap(writer, 0, env1);
        MapStatus m1 = runMap(writer, 1, env2);
        assertThat(m0.bytesPerPartition()).hasSize(1);
        ShuffleReaderExec reader = new ShuffleReaderExec(ShuffleEndToEndTest.SCHEMA, "j-bc", broadcast, List.of(m0, m1));
        assertThat(reader.properties().partitioning()).isEqualTo(broadcast);
        List<List<Object>> first = read(reader, 0);
        assertThat(first).hasSize(ShuffleEndToEndTest.totalRows());
        for (int consumer : new int[] {1, 5, 63}) {
            assertThat(read(reader, consumer)).isEqualTo(first);
        }
        assertThatThrownBy(() -> read(reader, -1)).isInstanceOf(IllegalArgumentException.class);
        // A non-broadcast reader still rejects partitions it does not have.
        ShuffleReaderExec single = new ShuffleReaderExec(ShuffleEndToEndTest.SCHEMA, "j-bc", new Partitioning.Single(),
                List.of(m0, m1));
        assertThatThrownBy(() -> read(single, 1)).hasMessageContaining("out of range");
    }
}
