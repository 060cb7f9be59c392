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
import io.sluice.operators.memory.MemoryReservation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
                    int[] target;
                    try {
                        target = router.partitions(next);
                    } catch (RuntimeException | Error e) {
                        next.close();
                        throw e;
                    }
                    output.add(next, 0, target); // the writer owns the batch now
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

        /** Each row's partition, or null when there is one partition (every row goes to 0). */
        int[] partitions(Batch batch) {
            int rows = batch.rowCount();
            if (partitionCount == 1 && range == null) {
                return null;
            }
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
