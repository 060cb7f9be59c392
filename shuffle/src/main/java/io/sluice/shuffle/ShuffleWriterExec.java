package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.exec.Batch;
import io.sluice.plan.exec.BatchStream;
import io.sluice.plan.exec.Col;
import io.sluice.plan.memory.MemoryReservation;
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
 * {@code outputPartitioning}, as one data file plus one index file under
 * {@code <localDirectory>/<shuffleId>/} of the worker's {@link ShuffleEnvironment} (see
 * {@link MapOutputWriter}: one Arrow IPC stream segment per output partition, in partition order,
 * heap use and open files bounded whatever the partition count).
 *
 * <p>Guarantees: every input row goes to exactly one segment; the output appears atomically, with
 * segments only for partitions that received rows (the returned {@link MapStatus} says 0 bytes for
 * the others); on failure no temporary file is left and all Arrow memory is released. Within a
 * segment, rows keep
 * their input order. Hash placement is {@link HashPartitioner}'s, range placement
 * {@link RangePartitioner}'s (the split points must be resolved by then, or {@link #write} fails
 * before writing anything); round-robin starts at {@code mapPartition mod n} so map tasks do not
 * all load partition 0 first. A {@link Partitioning.Broadcast} shuffle writes every row to block 0,
 * which the reader serves to every consumer partition.
 */
public record ShuffleWriterExec(ExecutionPlan input, Partitioning outputPartitioning, String shuffleId,
        PlanProperties properties, long estimatedRows) implements ExecutionPlan {
    /** A record, so that the plan travels through its constructor and the checks here run again on a worker. */
    public ShuffleWriterExec {
        requireNonNull(input, "input is null");
        requireNonNull(outputPartitioning, "outputPartitioning is null");
        ShuffleBlocks.checkShuffleId(shuffleId);
        requireNonNull(properties, "properties is null");
        if (outputPartitioning instanceof Partitioning.Unknown && outputPartitioning.partitionCount() > 1) {
            throw new IllegalArgumentException("cannot shuffle into " + outputPartitioning
                    + ": a writer needs a rule that places each row");
        }
    }

    /** Not estimated (yet): the planner sets the estimate with {@link #withEstimatedRows}. */
    public ShuffleWriterExec(ExecutionPlan input, Partitioning outputPartitioning, String shuffleId, PlanProperties properties) {
        this(input, outputPartitioning, shuffleId, properties, UNKNOWN_ROWS);
    }

    @Override
    public ShuffleWriterExec withEstimatedRows(long rows) {
        return new ShuffleWriterExec(input, outputPartitioning, shuffleId, properties, rows);
    }

    public ShuffleWriterExec(ExecutionPlan input, Partitioning outputPartitioning, String shuffleId) {
        this(input, outputPartitioning, shuffleId, PlanProperties.of(new Partitioning.Unknown(
                requireNonNull(input, "input is null").properties().partitioning().partitionCount())));
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
        return new ShuffleWriterExec(children.get(0), outputPartitioning, shuffleId).withEstimatedRows(estimatedRows);
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
        ShuffleSettings settings = env.settings();
        MemoryReservation buffers = context.reserve(describe() + " buffers");
        MapOutputWriter output = new MapOutputWriter(ShuffleBlocks.dataFile(env.localDirectory(), shuffleId, mapPartition),
                ShuffleBlocks.indexFile(env.localDirectory(), shuffleId, mapPartition), mapPartition, input.schema(),
                outputPartitioning.partitionCount(), context.allocator(), settings.compression(), context.batchSize(),
                settings.maxBufferedRows(), buffers);
        RowRouter router = new RowRouter(outputPartitioning, mapPartition, input.schema());
        boolean committed = false;
        try {
            try (BatchStream stream = input.execute(mapPartition, context)) {
                Batch next;
                while ((next = stream.next()) != null) {
                    try (Batch batch = next) {
                        route(batch, router, output);
                    }
                    context.checkNotCancelled();
                }
            }
            long[] bytes = output.commit(env.taskKey());
            committed = true;
            env.metrics().addWrite(output.recordsWritten(), output.bytesWritten(), output.writeNanos());
            return new MapStatus(env.workerId(), env.host(), env.port(), bytes, context.published());
        } finally {
            try {
                if (!committed) {
                    output.abort();
                }
            } finally {
                buffers.close();
            }
        }
    }

    /** Hands each partition its rows of {@code batch}, in input order. */
    private static void route(Batch batch, RowRouter router, MapOutputWriter output) {
        int rows = batch.rowCount();
        if (rows == 0) {
            return;
        }
        int n = router.partitionCount;
        int[] target = router.partitions(batch);
        int[] counts = new int[n];
        for (int i = 0; i < rows; i++) {
            counts[target[i]]++;
        }
        Col[] columns = batch.columns();
        int only = target[0];
        if (counts[only] == rows) {
            output.add(only, columns);
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
        // Each partition keeps its slice of the row order; its rows are copied once, when written.
        for (int r = 0; r < n; r++) {
            if (counts[r] > 0) {
                output.add(r, columns, order, starts[r], counts[r]);
            }
        }
    }

    /** Places rows for one map task; holds the round-robin position across batches. */
    private static final class RowRouter {
        final int partitionCount;
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
