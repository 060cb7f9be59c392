package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.MapStatus;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The bottom of a stage that consumes a shuffle: reduce partition {@code r} is the concatenation,
 * in map order, of block {@code (m, r)} of every map output. {@code mapOutputs.get(m)} is the
 * status of map task {@code m} when they are bound into the plan ({@link #withMapOutputs}); a
 * reader left unbound, as the scheduler sends every stage, takes its partition's block locations
 * from the task's {@link MapOutputLocator} when it starts.
 *
 * <p>Segments on this worker's own shuffle server are read from disk; others are fetched through
 * the worker's {@link ShuffleClient}, several at once within the in-flight bounds of
 * {@link ShuffleSettings}, and decoded as their bytes arrive. Empty blocks are skipped. Every
 * segment's length, checksum and row count are verified; a failure is a
 * {@link ShuffleFetchException} naming the shuffle, map and server. Batches are allocated from the
 * task's allocator and belong to the caller.
 *
 * <p>With {@link Partitioning.Broadcast} partitioning the reader serves block 0 of every map output
 * for any partition index its consumer asks for, so each consumer partition sees all rows.
 */
public record ShuffleReaderExec(Schema schema, String shuffleId, Partitioning partitioning, List<MapStatus> mapOutputs,
        PlanProperties properties, long estimatedRows) implements ExecutionPlan {
    /** A record, so that the plan travels through its constructor and the checks here run again on a worker. */
    public ShuffleReaderExec {
        requireNonNull(schema, "schema is null");
        ShuffleBlocks.checkShuffleId(shuffleId);
        requireNonNull(partitioning, "partitioning is null");
        mapOutputs = List.copyOf(requireNonNull(mapOutputs, "mapOutputs is null"));
        requireNonNull(properties, "properties is null");
        if (!properties.partitioning().equals(partitioning)) {
            throw new IllegalArgumentException("reader properties partitioned " + properties.partitioning()
                    + ", the shuffle " + partitioning);
        }
        int n = partitioning.partitionCount();
        for (int m = 0; m < mapOutputs.size(); m++) {
            int length = mapOutputs.get(m).bytesPerPartition().length;
            if (length != n) {
                throw new IllegalArgumentException("map output " + m + " of shuffle " + shuffleId + " has " + length
                        + " partitions, the reader expects " + n);
            }
        }
    }

    /** Not estimated (yet): the planner sets the estimate with {@link #withEstimatedRows}. */
    public ShuffleReaderExec(Schema schema, String shuffleId, Partitioning partitioning, List<MapStatus> mapOutputs, PlanProperties properties) {
        this(schema, shuffleId, partitioning, mapOutputs, properties, UNKNOWN_ROWS);
    }

    @Override
    public ExecutionPlan withEstimatedRows(long rows) {
        return new ShuffleReaderExec(schema, shuffleId, partitioning, mapOutputs, properties, rows);
    }

    public ShuffleReaderExec(Schema schema, String shuffleId, Partitioning partitioning, List<MapStatus> mapOutputs) {
        this(schema, shuffleId, partitioning, mapOutputs, PlanProperties.of(requireNonNull(partitioning,
                "partitioning is null")));
    }

    /**
     * A reader that also states what else is known of the rows it reads back: an ordered gather's
     * reader concatenates the map outputs in map order, which is the gather's order, so operators
     * above it that choose how to run from their input's ordering (a sorted aggregate) choose in
     * the task as the optimizer did. {@code properties.partitioning()} is the shuffle's.
     */
    public ShuffleReaderExec(Schema schema, String shuffleId, List<MapStatus> mapOutputs, PlanProperties properties) {
        this(schema, shuffleId, requireNonNull(properties, "properties is null").partitioning(), mapOutputs, properties);
    }

    /** A copy bound to the finished map stage's outputs, indexed by map partition. */
    public ShuffleReaderExec withMapOutputs(List<MapStatus> outputs) {
        return new ShuffleReaderExec(schema, shuffleId, outputs, properties);
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of();
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        if (!children.isEmpty()) {
            throw new IllegalArgumentException("ShuffleReaderExec takes no children, got " + children.size());
        }
        return this;
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        requireNonNull(context, "context is null");
        int n = partitioning.partitionCount();
        boolean broadcast = partitioning instanceof Partitioning.Broadcast;
        if (partition < 0 || (partition >= n && !broadcast)) {
            throw new IllegalArgumentException("reduce partition " + partition + " out of range [0, " + n + ")");
        }
        ShuffleEnvironment env = context.service(ShuffleEnvironment.class);
        // A broadcast shuffle has one block per map output, read whole by every consumer partition.
        int reduce = broadcast ? 0 : partition;
        if (!mapOutputs.isEmpty()) {
            return BatchStream.cancellable(new ReduceStream(env, reduce, mapOutputs, reduce, context), context);
        }
        List<MapStatus> located = context.service(MapOutputLocator.class).blocks(env.jobId(), shuffleId, reduce);
        if (located.isEmpty()) {
            // A map stage has at least one task, so no outputs at all means nothing was registered.
            throw new IllegalStateException("shuffle " + shuffleId + " has no map outputs registered");
        }
        return BatchStream.cancellable(new ReduceStream(env, reduce, located, 0, context), context);
    }

    @Override
    public String describe() {
        return "ShuffleReaderExec: shuffle=" + shuffleId;
    }

    /**
     * Walks the map outputs in order, decoding one segment at a time while the next remote ones
     * are already requested: requests go out in map order while the requested-but-unconsumed bytes
     * stay within {@link ShuffleSettings#maxInFlightBytes()} (one segment is always allowed) and
     * the requests within {@link ShuffleSettings#maxRequestsInFlight()}. Local segments are read
     * from disk when their turn comes.
     */
    private final class ReduceStream implements BatchStream {
        private final ShuffleEnvironment env;
        private final int partition;
        /** Per map task, its server and, at {@code sizeIndex}, the size of this partition's block. */
        private final List<MapStatus> mapOutputs;
        private final int sizeIndex;
        private final TaskContext context;
        private final int[] maps;
        private final Map<Integer, RemoteSegment> requested = new HashMap<>();
        private int nextToConsume;
        private int nextToRequest;
        private long inFlightBytes;
        private SegmentDecoder current;
        private RemoteSegment currentRemote;
        private long currentBytes;
        private boolean closed;

        ReduceStream(ShuffleEnvironment env, int partition, List<MapStatus> mapOutputs, int sizeIndex,
                TaskContext context) {
            this.env = env;
            this.partition = partition;
            this.mapOutputs = mapOutputs;
            this.sizeIndex = sizeIndex;
            this.context = context;
            this.maps = IntStream.range(0, mapOutputs.size())
                    .filter(m -> mapOutputs.get(m).bytesPerPartition()[sizeIndex] > 0)
                    .toArray();
        }

        @Override
        public Batch next() {
            if (closed) {
                throw new IllegalStateException("stream is closed");
            }
            while (true) {
                if (current == null) {
                    current = openNext();
                    if (current == null) {
                        return null;
                    }
                }
                Batch batch = current.next();
                if (batch != null) {
                    env.metrics().addRecordsRead(batch.rowCount());
                    return batch;
                }
                current.close();
                current = null;
                if (currentRemote != null) {
                    inFlightBytes -= currentBytes;
                    env.metrics().addSegmentRead(true, currentBytes, currentRemote.waitNanos());
                    currentRemote = null;
                } else {
                    env.metrics().addSegmentRead(false, currentBytes, 0);
                }
            }
        }

        private SegmentDecoder openNext() {
            if (nextToConsume >= maps.length) {
                return null;
            }
            int map = maps[nextToConsume++];
            MapStatus status = mapOutputs.get(map);
            long expected = status.bytesPerPartition()[sizeIndex];
            BlockLocation block = new BlockLocation(status.host(), status.port(), shuffleId, map, partition);
            currentBytes = expected;
            if (env.isLocal(status.host(), status.port())) {
                return LocalSegments.open(env.localDirectory(), block, expected, schema, context.allocator());
            }
            requestAhead();
            RemoteSegment segment = requested.remove(map);
            if (segment == null) {
                throw new IllegalStateException("segment of map " + map + " was not requested");
            }
            currentRemote = segment;
            return env.client().decode(segment, expected, schema, context.allocator());
        }

        /** Requests remote segments from {@code nextToConsume - 1} on, in order, within the in-flight bounds. */
        private void requestAhead() {
            ShuffleSettings settings = env.settings();
            nextToRequest = Math.max(nextToRequest, nextToConsume - 1);
            while (nextToRequest < maps.length && requested.size() < settings.maxRequestsInFlight()) {
                int map = maps[nextToRequest];
                MapStatus status = mapOutputs.get(map);
                if (env.isLocal(status.host(), status.port())) {
                    nextToRequest++;
                    continue;
                }
                long size = status.bytesPerPartition()[sizeIndex];
                if (inFlightBytes > 0 && inFlightBytes + size > settings.maxInFlightBytes()) {
                    return;
                }
                BlockLocation block = new BlockLocation(status.host(), status.port(), shuffleId, map, partition);
                requested.put(map, env.client().request(block, env.jobId()));
                inFlightBytes += size;
                env.metrics().observeInFlight(inFlightBytes);
                nextToRequest++;
            }
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            if (current != null) {
                current.close();
                current = null;
            }
            requested.values().forEach(RemoteSegment::close);
            requested.clear();
        }
    }
}
