package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.exec.Batch;
import io.sluice.plan.exec.BatchStream;
import io.sluice.plan.exec.Col;
import io.sluice.plan.physical.ExecutionPlan;
import io.sluice.plan.physical.MapStatus;
import io.sluice.plan.physical.Partitioning;
import io.sluice.plan.physical.PlanProperties;
import io.sluice.plan.physical.TaskContext;
import io.sluice.plan.types.Schema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The top of a map stage: runs one input partition and writes its rows, split by
 * {@code outputPartitioning}, as one Arrow IPC stream block per output partition under
 * {@code <localDirectory>/<shuffleId>/map-<m>-part-<r>.arrow} of the worker's
 * {@link ShuffleEnvironment}.
 *
 * <p>Guarantees: every input row goes to exactly one block; blocks appear atomically and only for
 * partitions that received rows (the returned {@link MapStatus} says 0 bytes for the others); on
 * failure no temporary file is left and all Arrow memory is released. Within a block, rows keep
 * their input order. Hash placement is {@link HashPartitioner}'s, range placement
 * {@link RangePartitioner}'s (the split points must be resolved by then, or {@link #write} fails
 * before writing anything); round-robin starts at {@code mapPartition mod n} so map tasks do not
 * all load partition 0 first. A {@link Partitioning.Broadcast} shuffle writes every row to block 0,
 * which the reader serves to every consumer partition.
 *
 * <p>Rows bound for a partition are buffered on the heap and written as record batches of about
 * the task's batch size, so many output partitions do not turn into many tiny IPC batches.
 */
public final class ShuffleWriterExec implements ExecutionPlan {
    private final ExecutionPlan input;
    private final Partitioning outputPartitioning;
    private final String shuffleId;
    private final PlanProperties properties;

    public ShuffleWriterExec(ExecutionPlan input, Partitioning outputPartitioning, String shuffleId) {
        this.input = requireNonNull(input, "input is null");
        this.outputPartitioning = requireNonNull(outputPartitioning, "outputPartitioning is null");
        this.shuffleId = ShuffleBlocks.checkShuffleId(shuffleId);
        if (outputPartitioning instanceof Partitioning.Unknown && outputPartitioning.partitionCount() > 1) {
            throw new IllegalArgumentException("cannot shuffle into " + outputPartitioning
                    + ": a writer needs a rule that places each row");
        }
        this.properties = PlanProperties.of(new Partitioning.Unknown(input.properties().partitioning().partitionCount()));
    }

    public ExecutionPlan input() {
        return input;
    }

    public Partitioning outputPartitioning() {
        return outputPartitioning;
    }

    public String shuffleId() {
        return shuffleId;
    }

    @Override
    public Schema schema() {
        return input.schema();
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(input);
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        if (children.size() != 1) {
            throw new IllegalArgumentException("ShuffleWriterExec takes one child, got " + children.size());
        }
        return new ShuffleWriterExec(children.get(0), outputPartitioning, shuffleId);
    }

    @Override
    public PlanProperties properties() {
        return properties;
    }

    /** Writes the partition's shuffle output; the stream is empty (use {@link #write} for the map status). */
    @Override
    public BatchStream execute(int partition, TaskContext context) {
        write(partition, context);
        return BatchStream.empty();
    }

    @Override
    public String describe() {
        return "ShuffleWriterExec: shuffle=" + shuffleId + " partitioning=" + outputPartitioning;
    }

    /** Runs input partition {@code mapPartition} and writes its blocks; returns where they are and their sizes. */
    public MapStatus write(int mapPartition, TaskContext context) {
        requireNonNull(context, "context is null");
        int mapCount = properties.partitioning().partitionCount();
        if (mapPartition < 0 || mapPartition >= mapCount) {
            throw new IllegalArgumentException("map partition " + mapPartition + " out of range [0, " + mapCount + ")");
        }
        ShuffleEnvironment env = context.service(ShuffleEnvironment.class);
        Path directory = ShuffleBlocks.shuffleDirectory(env.localDirectory(), shuffleId);
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create shuffle directory " + directory, e);
        }
        MapTask task = new MapTask(directory, mapPartition, context);
        boolean committed = false;
        try {
            try (BatchStream stream = input.execute(mapPartition, context)) {
                Batch next;
                while ((next = stream.next()) != null) {
                    try (Batch batch = next) {
                        task.route(batch);
                    }
                    context.checkNotCancelled();
                }
            }
            long[] bytes = task.commit();
            committed = true;
            return new MapStatus(env.workerId(), env.host(), env.port(), bytes);
        } finally {
            if (!committed) {
                task.abort();
            }
        }
    }

    /**
     * The state of one running map task: its open blocks, the rows buffered per partition and the
     * round-robin position. Buffered rows are flushed to a partition's block once they reach the
     * batch size, and all at once when the task holds more than {@link #MAX_BUFFERED_BATCHES}
     * batches' worth, which bounds the heap a task uses for any partition count.
     */
    private final class MapTask {
        private static final int MAX_BUFFERED_BATCHES = 16;

        private final Path directory;
        private final int map;
        private final TaskContext context;
        private final int batchSize;
        private final RowRouter router;
        private final BlockWriter[] blocks;
        private final PartitionBuffer[] buffers;
        private long bufferedRows;

        MapTask(Path directory, int map, TaskContext context) {
            this.directory = directory;
            this.map = map;
            this.context = context;
            this.batchSize = context.batchSize();
            int n = outputPartitioning.partitionCount();
            this.router = new RowRouter(outputPartitioning, map, input.schema());
            this.blocks = new BlockWriter[n];
            this.buffers = new PartitionBuffer[n];
        }

        void route(Batch batch) {
            int rows = batch.rowCount();
            if (rows == 0) {
                return;
            }
            int n = blocks.length;
            int[] target = router.partitions(batch);
            int[] counts = new int[n];
            for (int i = 0; i < rows; i++) {
                counts[target[i]]++;
            }
            int only = target[0];
            if (counts[only] == rows) {
                if (rows >= batchSize / 2 && buffered(only) == 0) {
                    // A big batch for one partition with nothing pending before it: write it as it is.
                    block(only).append(batch);
                } else {
                    buffer(only, batch.columns());
                }
                return;
            }
            // Counting sort of row indexes by partition; each partition's rows keep their input order.
            int[] starts = new int[n + 1];
            for (int r = 0; r < n; r++) {
                starts[r + 1] = starts[r] + counts[r];
            }
            int[] order = new int[rows];
            int[] fill = Arrays.copyOf(starts, n);
            for (int i = 0; i < rows; i++) {
                order[fill[target[i]]++] = i;
            }
            Col[] columns = batch.columns();
            for (int r = 0; r < n; r++) {
                int count = counts[r];
                if (count == 0) {
                    continue;
                }
                int[] indexes = Arrays.copyOfRange(order, starts[r], starts[r + 1]);
                Col[] gathered = new Col[columns.length];
                for (int c = 0; c < columns.length; c++) {
                    gathered[c] = columns[c].gather(indexes, count);
                }
                buffer(r, gathered);
            }
        }

        private int buffered(int partition) {
            return buffers[partition] == null ? 0 : buffers[partition].rows();
        }

        private void buffer(int partition, Col[] columns) {
            PartitionBuffer buffer = buffers[partition];
            if (buffer == null) {
                buffer = new PartitionBuffer(columns.length);
                buffers[partition] = buffer;
            }
            buffer.add(columns);
            bufferedRows += columns.length == 0 ? 0 : columns[0].length;
            if (buffer.rows() >= batchSize) {
                flush(partition);
            }
            if (bufferedRows > (long) MAX_BUFFERED_BATCHES * batchSize) {
                flushAll();
            }
        }

        private void flush(int partition) {
            PartitionBuffer buffer = buffers[partition];
            int rows = buffer.rows();
            if (rows == 0) {
                return;
            }
            Col[] columns = buffer.drain();
            bufferedRows -= rows;
            try (Batch part = Batch.of(input.schema(), columns, rows, context.allocator())) {
                block(partition).append(part);
            }
        }

        private void flushAll() {
            for (int r = 0; r < buffers.length; r++) {
                if (buffers[r] != null) {
                    flush(r);
                }
            }
        }

        private BlockWriter block(int partition) {
            BlockWriter block = blocks[partition];
            if (block == null) {
                block = BlockWriter.open(directory, map, partition, input.schema(), context.allocator());
                blocks[partition] = block;
            }
            return block;
        }

        /** Flushes and commits every block; returns the bytes per partition (0 where no rows came). */
        long[] commit() {
            flushAll();
            long[] bytes = new long[blocks.length];
            for (int r = 0; r < blocks.length; r++) {
                if (blocks[r] != null) {
                    bytes[r] = blocks[r].commit();
                }
            }
            return bytes;
        }

        void abort() {
            for (BlockWriter block : blocks) {
                if (block != null) {
                    block.abort();
                }
            }
        }
    }

    /** Places rows for one map task; holds the round-robin position across batches. */
    private static final class RowRouter {
        private final int partitionCount;
        private final HashPartitioner hash;
        private final RangePartitioner range;
        private int nextRoundRobin;

        RowRouter(Partitioning partitioning, int mapPartition, Schema schema) {
            this.partitionCount = partitioning.partitionCount();
            this.hash = partitioning instanceof Partitioning.Hash h && partitionCount > 1
                    ? new HashPartitioner(h.keys(), partitionCount)
                    : null;
            // Resolving the split points is checked even for one partition: an unbound plan is a scheduler bug.
            this.range = partitioning instanceof Partitioning.Range r ? new RangePartitioner(r, schema) : null;
            this.nextRoundRobin = partitioning instanceof Partitioning.RoundRobin ? mapPartition % partitionCount : 0;
        }

        int[] partitions(Batch batch) {
            int rows = batch.rowCount();
            if (hash != null) {
                return hash.partitions(batch);
            }
            if (range != null) {
                return range.partitions(batch);
            }
            int[] out = new int[rows];
            if (partitionCount > 1) {
                // Only round-robin gets here with more than one partition (the constructor rejects unknown(n > 1)).
                int next = nextRoundRobin;
                for (int i = 0; i < rows; i++) {
                    out[i] = next;
                    next = next + 1 == partitionCount ? 0 : next + 1;
                }
                nextRoundRobin = next;
            }
            return out;
        }
    }
}
