package io.sluice.datasource.sink;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.datasource.file.HadoopConfiguration;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.ValueBatch;
import io.sluice.logical.sink.WriteTarget;
import io.sluice.operators.CardinalityEffect;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import io.sluice.operators.sort.SortExec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * The final operator of a write: each task writes its whole input partition as one file where the
 * target's {@link CommitProtocol} says ({@link CommitProtocol#taskFile}: its own attempt directory,
 * or on an object store its final attempt-unique name) and outputs one row naming what it reports
 * ({@link CommitProtocol#reported}) and the rows written. Nothing is visible at the target until the
 * coordinator commits the job ({@link CommitProtocol#commit}), publishing only the attempts whose
 * rows it received, one per partition; so a failed, cancelled or duplicate attempt leaves nothing behind.
 * A storage error is not the user's: it fails the attempt, which is retried. {@code hadoop} holds the
 * session's Hadoop overrides when the write was planned, which the task writes with (never printed).
 */
public record FileWriteExec(ExecutionPlan input, WriteTarget target, PlanProperties properties, long estimatedRows,
        Map<String, String> hadoop) implements ExecutionPlan {
    /** What each task outputs: its attempt directory (or, on an object store, its file) and how many rows it wrote. */
    public static final Schema RESULT_SCHEMA = Schema.of(new Field("attempt_dir", DataType.UTF8),
            new Field("rows", DataType.INT64));

    public FileWriteExec {
        requireNonNull(input, "input is null");
        requireNonNull(target, "target is null");
        requireNonNull(properties, "properties is null");
        hadoop = Map.copyOf(hadoop);
        checkWritable(input.schema());
        if (target.isPartitioned()) {
            PartitionedWrite.check(input.schema(), target.partitionBy());
        }
    }

    /**
     * The write of {@code input}'s partitions; into partition directories, each task's rows sorted
     * by the partition columns first, so that a task writes one file per partition, one at a time.
     */
    public static FileWriteExec create(ExecutionPlan input, WriteTarget target) {
        if (!target.isPartitioned()) {
            return new FileWriteExec(input, target);
        }
        PartitionedWrite.check(input.schema(), target.partitionBy());
        ExecutionPlan sorted = new SortExec(input, PartitionedWrite.sortKeys(input.schema(), target), SortExec.NO_FETCH, true)
                .withEstimatedRows(input.estimatedRows());
        return new FileWriteExec(sorted, target);
    }

    /** Not estimated (yet): the planner sets the estimate with {@link #withEstimatedRows}. */
    public FileWriteExec(ExecutionPlan input, WriteTarget target, PlanProperties properties) {
        this(input, target, properties, UNKNOWN_ROWS, HadoopConfiguration.overrides());
    }

    @Override
    public ExecutionPlan withEstimatedRows(long rows) {
        return new FileWriteExec(input, target, properties, rows, hadoop);
    }

    public FileWriteExec(ExecutionPlan input, WriteTarget target) {
        this(input, target, PlanProperties.of(new Partitioning.Unknown(
                input.properties().partitioning().partitionCount())));
    }

    /**
     * Fails, naming it, on a column no file can hold: one typed NULL (an untyped {@code SELECT NULL}),
     * or a second column of the same name (files are read back by column name).
     */
    public static void checkWritable(Schema schema) {
        java.util.Set<String> names = new java.util.HashSet<>();
        for (Field f : schema.fields()) {
            if (f.type().kind() == DataType.Kind.NULL) {
                throw new SluiceException("column '" + f.name() + "' has no type (an untyped NULL); cast it, e.g. "
                        + "CAST(NULL AS INT), to write it to a file");
            }
            if (!names.add(f.name().toLowerCase(java.util.Locale.ROOT))) {
                throw new SluiceException("column name '" + f.name() + "' appears more than once; give each column "
                        + "its own name (AS ...) to write it to a file");
            }
        }
    }

    @Override
    public Schema schema() {
        return RESULT_SCHEMA;
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(input);
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new FileWriteExec(children.get(0), target, PlanProperties.of(new Partitioning.Unknown(
                children.get(0).properties().partitioning().partitionCount())), estimatedRows, hadoop);
    }

    @Override
    public CardinalityEffect cardinalityEffect() {
        return CardinalityEffect.UNKNOWN;
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        return new BatchStream() {
            private boolean done;

            @Override
            public Batch next() {
                if (done) {
                    return null;
                }
                done = true;
                CommitProtocol protocol = CommitProtocol.of(target);
                Path file = protocol.taskFile(partition, context.jobId(), context.taskId());
                long rows = HadoopConfiguration.withOverrides(hadoop, () -> writePartition(partition, context, file));
                String reported = protocol.reported(file);
                return ValueBatch.of(RESULT_SCHEMA, context.allocator(), 1, new String[] {reported}, new long[] {rows});
            }

            @Override
            public void close() {
            }
        };
    }

    private long writePartition(int partition, TaskContext context, Path file) {
        Configuration conf = HadoopConfiguration.shared();
        long rows = 0;
        try (BatchStream in = input.execute(partition, context); PartitionFileWriter writer = writer(file, conf, context)) {
            for (Batch next = in.next(); next != null; next = in.next()) {
                try (Batch b = next) {
                    context.checkNotCancelled();
                    writer.write(b);
                    rows += b.rowCount();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return rows;
    }

    /** The file's writer; for a partitioned target, one writing a file of that name in each partition directory. */
    private PartitionFileWriter writer(Path file, Configuration conf, TaskContext context) throws IOException {
        if (!target.isPartitioned()) {
            return PartitionFileWriter.open(target.format(), input.schema(), file, conf, target.options());
        }
        Schema fileSchema = PartitionedWrite.fileSchema(input.schema(), target.partitionBy());
        return new PartitionedWrite(input.schema(), target.partitionBy(), file.getParent(), file.getName(),
                f -> PartitionFileWriter.open(target.format(), fileSchema, f, conf, target.options()), context.allocator());
    }

    @Override
    public String describe() {
        return "FileWriteExec: " + target.format().name().toLowerCase(java.util.Locale.ROOT) + " to "
                + target.location() + " (" + target.mode().name().toLowerCase(java.util.Locale.ROOT) + ")"
                + (target.isPartitioned() ? " partitioned by " + target.partitionBy() : "");
    }
}
