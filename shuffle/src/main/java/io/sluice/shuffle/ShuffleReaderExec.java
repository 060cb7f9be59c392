package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.exec.Batch;
import io.sluice.plan.exec.BatchStream;
import io.sluice.plan.physical.ExecutionPlan;
import io.sluice.plan.physical.MapStatus;
import io.sluice.plan.physical.Partitioning;
import io.sluice.plan.physical.PlanProperties;
import io.sluice.plan.physical.TaskContext;
import io.sluice.plan.types.Schema;
import java.util.List;

/**
 * The bottom of a stage that consumes a shuffle: reduce partition {@code r} is the concatenation,
 * in map order, of block {@code (m, r)} of every map output. {@code mapOutputs.get(m)} is the
 * status of map task {@code m}; they are bound by the scheduler with {@link #withMapOutputs} once
 * the map stage is done.
 *
 * <p>Blocks are always fetched through the worker's {@link ShuffleClient}, even from this worker,
 * so there is one code path. Blocks are fetched lazily, one at a time (the next map's block when
 * the previous one is drained); empty blocks are skipped. Batches are allocated from the task's
 * allocator and belong to the caller.
 *
 * <p>With {@link Partitioning.Broadcast} partitioning the reader serves block 0 of every map output
 * for any partition index its consumer asks for, so each consumer partition sees all rows.
 */
public final class ShuffleReaderExec implements ExecutionPlan {
    private final Schema schema;
    private final String shuffleId;
    private final Partitioning partitioning;
    private final List<MapStatus> mapOutputs;
    private final PlanProperties properties;

    public ShuffleReaderExec(Schema schema, String shuffleId, Partitioning partitioning, List<MapStatus> mapOutputs) {
        this.schema = requireNonNull(schema, "schema is null");
        this.shuffleId = ShuffleBlocks.checkShuffleId(shuffleId);
        this.partitioning = requireNonNull(partitioning, "partitioning is null");
        this.mapOutputs = List.copyOf(requireNonNull(mapOutputs, "mapOutputs is null"));
        int n = partitioning.partitionCount();
        for (int m = 0; m < this.mapOutputs.size(); m++) {
            int length = this.mapOutputs.get(m).bytesPerPartition().length;
            if (length != n) {
                throw new IllegalArgumentException("map output " + m + " of shuffle " + shuffleId + " has " + length
                        + " partitions, the reader expects " + n);
            }
        }
        this.properties = PlanProperties.of(partitioning);
    }

    /** A copy bound to the finished map stage's outputs, indexed by map partition. */
    public ShuffleReaderExec withMapOutputs(List<MapStatus> outputs) {
        return new ShuffleReaderExec(schema, shuffleId, partitioning, outputs);
    }

    public String shuffleId() {
        return shuffleId;
    }

    public Partitioning partitioning() {
        return partitioning;
    }

    public List<MapStatus> mapOutputs() {
        return mapOutputs;
    }

    @Override
    public Schema schema() {
        return schema;
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
    public PlanProperties properties() {
        return properties;
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        requireNonNull(context, "context is null");
        int n = partitioning.partitionCount();
        boolean broadcast = partitioning instanceof Partitioning.Broadcast;
        if (partition < 0 || (partition >= n && !broadcast)) {
            throw new IllegalArgumentException("reduce partition " + partition + " out of range [0, " + n + ")");
        }
        if (mapOutputs.isEmpty()) {
            // A map stage has at least one task, so an unbound reader means the scheduler skipped withMapOutputs.
            throw new IllegalStateException("shuffle " + shuffleId + " has no map outputs bound; run the map stage and "
                    + "bind its outputs with withMapOutputs before executing the reader");
        }
        ShuffleClient client = context.service(ShuffleEnvironment.class).client();
        // A broadcast shuffle has one block per map output, read whole by every consumer partition.
        return new ReduceStream(client, broadcast ? 0 : partition, context);
    }

    @Override
    public String describe() {
        return "ShuffleReaderExec: shuffle=" + shuffleId;
    }

    /** Walks the map outputs in order, holding at most one decoded block at a time. */
    private final class ReduceStream implements BatchStream {
        private final ShuffleClient client;
        private final int partition;
        private final TaskContext context;
        private int nextMap;
        private BlockReader current;
        private boolean closed;

        ReduceStream(ShuffleClient client, int partition, TaskContext context) {
            this.client = client;
            this.partition = partition;
            this.context = context;
        }

        @Override
        public Batch next() {
            if (closed) {
                throw new IllegalStateException("stream is closed");
            }
            while (true) {
                if (current == null) {
                    current = openNextBlock();
                    if (current == null) {
                        return null;
                    }
                }
                Batch batch = current.next();
                if (batch != null) {
                    return batch;
                }
                current.close();
                current = null;
            }
        }

        private BlockReader openNextBlock() {
            while (nextMap < mapOutputs.size()) {
                int map = nextMap++;
                MapStatus status = mapOutputs.get(map);
                long expected = status.bytesPerPartition()[partition];
                if (expected == 0) {
                    continue;
                }
                byte[] bytes = client.fetch(status.host(), status.port(), shuffleId, map, partition);
                if (bytes.length != expected) {
                    throw new ShuffleFetchException(status.host(), status.port(), shuffleId, map, partition,
                            "block has " + bytes.length + " bytes, the map status recorded " + expected
                                    + " (stale or corrupt map output)", null);
                }
                return new BlockReader(bytes, schema, context.allocator(),
                        ShuffleBlocks.describe(shuffleId, map, partition));
            }
            return null;
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
        }
    }
}
