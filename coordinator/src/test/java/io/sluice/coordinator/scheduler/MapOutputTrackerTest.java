package io.sluice.coordinator.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.cluster.protocol.MapOutputColumn;
import io.sluice.cluster.serialization.Kryos;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Column;
import io.sluice.operators.MapStatus;
import io.sluice.operators.Partitioning;
import io.sluice.operators.basic.UnionExec;
import io.sluice.shuffle.ShuffleReaderExec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a dispatched task is sent of the tracker's map outputs: the columns of the partitions it is
 * expected to read ({@link ShuffleReads}), within the message's byte budget, and nothing for a
 * shuffle not registered; asks are counted.
 */
class MapOutputTrackerTest {
    private static final Schema SCHEMA = Schema.of(new Field("k", DataType.INT64));
    private static final Partitioning.Hash HASH = new Partitioning.Hash(List.of(new Column("k")), 3);

    @Test
    void sendsTheColumnsOfTheReadPartitionsThatAreRegistered() {
        MapOutputTracker tracker = new MapOutputTracker();
        tracker.register("job1", "job1-s0", List.of(new MapStatus("worker-0", "127.0.0.1", 7001, new long[] {1, 2, 3}),
                new MapStatus("worker-1", "127.0.0.1", 7002, new long[] {4, 5, 6})));
        tracker.register("job1", "job1-s1", List.of(new MapStatus("worker-1", "127.0.0.1", 7002, new long[] {9})));
        ShuffleReads reads = new ShuffleReads(List.of(new ShuffleReads.Read("job1-s0", 2), new ShuffleReads.Read("job1-s9", 2),
                new ShuffleReads.Read("job1-s1", 0)), 1 << 20);

        List<MapOutputColumn> columns = tracker.columns("job1", reads);

        assertThat(columns).extracting(MapOutputColumn::shuffleId).containsExactly("job1-s0", "job1-s1");
        MapOutputColumn first = columns.get(0);
        assertThat(first.partition()).isEqualTo(2);
        assertThat(first.blocks()).extracting(MapStatus::workerId).containsExactly("worker-0", "worker-1");
        assertThat(first.blocks()).extracting(s -> s.bytesPerPartition()[0]).containsExactly(3L, 6L);
        assertThat(tracker.columns("job2", reads)).as("another job's shuffles").isEmpty();
        assertThat(tracker.asks()).as("sending is not asking").isZero();
        tracker.answer("job1", "job1-s0", 1);
        assertThat(tracker.asks()).isEqualTo(1);
    }

    /** The estimate that keeps a task message under the message limit is never below the real size. */
    @Test
    void columnsStopAtTheByteBudgetWhichBoundsTheirSerializedSize() {
        MapOutputTracker tracker = new MapOutputTracker();
        List<MapStatus> maps = new ArrayList<>();
        for (int m = 0; m < 200; m++) {
            maps.add(new MapStatus("worker-" + m % 7, "127.0.0." + m % 3, 7000 + m, new long[] {m, Long.MAX_VALUE - m}));
        }
        tracker.register("job1", "job1-s0", maps);
        tracker.register("job1", "job1-s1", maps);
        ShuffleReads.Read first = new ShuffleReads.Read("job1-s0", 1);
        MapOutputColumn column = tracker.columns("job1", new ShuffleReads(List.of(first), 1 << 20)).get(0);
        long estimate = MapOutputTracker.estimatedBytes(column.blocks());
        assertThat(estimate).isGreaterThanOrEqualTo(Kryos.serialize(column).length);

        List<ShuffleReads.Read> both = List.of(first, new ShuffleReads.Read("job1-s1", 1));
        assertThat(tracker.columns("job1", new ShuffleReads(both, (int) (2 * estimate)))).hasSize(2);
        assertThat(tracker.columns("job1", new ShuffleReads(both, (int) (2 * estimate - 1))))
                .extracting(MapOutputColumn::shuffleId).containsExactly("job1-s0");
        assertThat(tracker.columns("job1", new ShuffleReads(both, (int) (estimate - 1)))).isEmpty();
    }

    @Test
    void aTaskIsExpectedToReadItsOwnPartitionOfEachShuffleAndBlockZeroOfABroadcast() {
        ShuffleReaderExec hashed = new ShuffleReaderExec(SCHEMA, "job1-s0", HASH, List.of());
        ShuffleReaderExec broadcast = new ShuffleReaderExec(SCHEMA, "job1-s1", new Partitioning.Broadcast(), List.of());
        ShuffleReaderExec single = new ShuffleReaderExec(SCHEMA, "job1-s2", new Partitioning.Single(), List.of());
        ShuffleReaderExec bound = new ShuffleReaderExec(SCHEMA, "job1-s3", new Partitioning.Single(),
                List.of(new MapStatus("worker-0", "127.0.0.1", 7001, new long[] {1})));
        List<ShuffleReaderExec> readers = ShuffleReads.readersOf(new UnionExec(List.of(hashed, broadcast, hashed, single, bound)));
        assertThat(readers).as("each shuffle once; a bound reader asks no one").containsExactly(hashed, broadcast, single);

        assertThat(ShuffleReads.forPartition(readers, 0, 100).reads()).containsExactly(new ShuffleReads.Read("job1-s0", 0),
                new ShuffleReads.Read("job1-s1", 0), new ShuffleReads.Read("job1-s2", 0));
        assertThat(ShuffleReads.forPartition(readers, 2, 100).reads()).containsExactly(new ShuffleReads.Read("job1-s0", 2),
                new ShuffleReads.Read("job1-s1", 0));
        assertThat(ShuffleReads.forPartition(List.of(hashed), 3, 100)).isEqualTo(ShuffleReads.NONE);
    }
}
