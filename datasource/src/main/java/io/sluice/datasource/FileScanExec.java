package io.sluice.datasource;

import static java.util.Objects.requireNonNull;

import io.sluice.common.settings.Redaction;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.datasource.file.HadoopConfiguration;
import io.sluice.datasource.file.ReadWaits;
import io.sluice.datasource.file.ScanPartition;
import io.sluice.datasource.file.SequentialStream;
import io.sluice.datasource.file.StoreReadAhead;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.plan.TableScan;
import io.sluice.logical.source.TableSource;
import io.sluice.operators.CardinalityEffect;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.FilterPushdown;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.ScanRowFilter;
import io.sluice.operators.TaskContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Reads a table's files: scan partitions of one file (CSV), row group (Parquet) or byte range
 * (JSON), listed once at planning time, packed into tasks ({@link ScanTasks}: many small files to
 * one task, whose output partition reads them one after another; {@code taskStarts} holds each
 * task's first partition). A table with no files still has one, empty, output partition. Filters offered from
 * above prune row groups whose statistics prove no row passes ({@code pruning} records them);
 * the filters themselves stay above, since a kept row group may still hold rows that fail. Hive
 * partition values are exact statistics of each partition ({@link ScanFiles}), so the same filters
 * prune partition directories; those known when the scan is created do so before any footer is read.
 *
 * <p>{@code runtimePruning} holds predicates learned after planning (a bound runtime filter's key
 * range, see {@link #withRuntimePruning}): the partitions stay (the stage's tasks are already
 * counted), and a task whose row group they prove empty reads nothing.
 *
 * <p>{@code rowFilters} hold tests of rows learned after planning (a bound runtime filter, see
 * {@link #withScanRowFilter}); with the pushed filters ({@code pruning}) they are applied while
 * reading ({@link ScanRowTests}): a Parquet scan decodes the columns they read first and the other
 * columns only for the rows that pass. The filters above stay, so the answer does not depend on it.
 *
 * <p>{@code hadoop} holds the session's Hadoop overrides ({@code SET sluice.hadoop.K}) in force when
 * the scan was planned, under the source's own ({@link TableSource#hadoop}): the plan carries them to the workers, which open the files with them
 * ({@link HadoopConfiguration#withOverrides}). They are never printed: values may be secrets.
 */
public record FileScanExec(TableSource source, List<String> columns, List<ScanPartition> partitions, List<Expr> pruning,
        List<Expr> runtimePruning, Schema schema, long estimatedRows, ListedFiles listedFiles, Map<String, String> hadoop,
        List<Integer> taskStarts, List<ScanRowFilter> rowFilters) implements ExecutionPlan {
    /**
     * How many files and partition directories listing found, of which the scan's partitions keep
     * the files they name: EXPLAIN shows the pruning as {@code files=3/5000 partitions=1/250}.
     */
    public record ListedFiles(int files, int partitions) {
    }

    public FileScanExec {
        requireNonNull(listedFiles, "listedFiles is null");
        requireNonNull(source, "source is null");
        columns = List.copyOf(columns);
        partitions = List.copyOf(partitions);
        pruning = List.copyOf(pruning);
        runtimePruning = List.copyOf(runtimePruning);
        requireNonNull(schema, "schema is null");
        hadoop = Map.copyOf(hadoop);
        taskStarts = List.copyOf(taskStarts);
        rowFilters = List.copyOf(rowFilters);
        for (int i = 0; i < taskStarts.size(); i++) {
            int start = taskStarts.get(i);
            if (start < 0 || start >= partitions.size() || (i == 0 ? start != 0 : start <= taskStarts.get(i - 1))) {
                throw new IllegalArgumentException("bad task starts " + taskStarts + " of " + partitions.size() + " partitions");
            }
        }
        if (taskStarts.isEmpty() != partitions.isEmpty()) {
            throw new IllegalArgumentException("bad task starts " + taskStarts + " of " + partitions.size() + " partitions");
        }
    }

    /** The partitions packed into tasks ({@link ScanTasks}). */
    public FileScanExec(TableSource source, List<String> columns, List<ScanPartition> partitions, List<Expr> pruning,
            List<Expr> runtimePruning, Schema schema, long estimatedRows, ListedFiles listedFiles, Map<String, String> hadoop) {
        this(source, columns, partitions, pruning, runtimePruning, schema, estimatedRows, listedFiles, hadoop,
                ScanTasks.starts(partitions), List.of());
    }

    /** Not estimated (yet): the planner sets the estimate with {@link #withEstimatedRows}. */
    public FileScanExec(TableSource source, List<String> columns, List<ScanPartition> partitions, List<Expr> pruning, Schema schema,
            ListedFiles listedFiles) {
        this(source, columns, partitions, pruning, List.of(), schema, UNKNOWN_ROWS, listedFiles,
                HadoopConfiguration.overrides());
    }

    @Override
    public ExecutionPlan withEstimatedRows(long rows) {
        return new FileScanExec(source, columns, partitions, pruning, runtimePruning, schema, rows, listedFiles, hadoop,
                taskStarts, rowFilters);
    }

    /** Keeps every partition; a task whose row group {@code predicates} prove empty reads nothing. */
    @Override
    public ExecutionPlan withRuntimePruning(List<Expr> predicates) {
        if (partitions.stream().allMatch(p -> p.stats().isEmpty())) {
            return this; // no statistics (CSV): nothing to skip with
        }
        List<Expr> all = new ArrayList<>(runtimePruning);
        predicates.stream().filter(p -> !all.contains(p)).forEach(all::add);
        return new FileScanExec(source, columns, partitions, pruning, all, schema, estimatedRows, listedFiles, hadoop,
                taskStarts, rowFilters);
    }

    /** Keeps every partition; the scan drops the rows {@code filter} rejects before decoding their other columns. */
    @Override
    public ExecutionPlan withScanRowFilter(ScanRowFilter filter) {
        if (rowFilters.contains(filter) || !columns.containsAll(filter.columns())) {
            return this;
        }
        List<ScanRowFilter> all = new ArrayList<>(rowFilters);
        all.add(filter);
        return new FileScanExec(source, columns, partitions, pruning, runtimePruning, schema, estimatedRows, listedFiles,
                hadoop, taskStarts, all);
    }

    /** Derives the schema once, here (which also checks every column exists). */
    public FileScanExec(TableSource source, List<String> columns, List<ScanPartition> partitions, List<Expr> pruning,
            ListedFiles listedFiles) {
        this(source, columns, partitions, pruning, schemaOf(source, columns), listedFiles);
    }

    /** Plans a scan of {@code columns}, listing the source's files now. */
    public static FileScanExec create(TableSource source, List<String> columns) {
        return create(source, columns, List.of());
    }

    /**
     * Plans a scan of {@code columns} under {@code filters} (conjuncts that stay above the scan):
     * lists the source's files, drops those whose partition values prove no row passes before any is
     * opened, and only then splits the rest into row groups (reading their footers, in parallel).
     */
    public static FileScanExec create(TableSource source, List<String> columns, List<Expr> filters) {
        return create(source, schemaOf(source, columns), filters);
    }

    /**
     * As {@link #create(TableSource, List, List)}, of the columns {@code schema} names, with its types:
     * a STRUCT narrower than the table's (some fields) is read as such ({@code read_schema} in EXPLAIN).
     */
    public static FileScanExec create(TableSource source, Schema schema, List<Expr> filters) {
        // listed with the source's own Hadoop overrides, which the scan then carries to the workers
        return HadoopConfiguration.withSourceOverrides(source.hadoop(), () -> {
            ScanFiles planned = ScanFiles.plan(source, filters);
            FileScanExec scan = new FileScanExec(source, schema.names(), planned.partitions(), List.of(), schema,
                    planned.listed());
            return filters.isEmpty() ? scan : (FileScanExec) scan.pushFilters(filters).plan();
        });
    }

    private static Schema schemaOf(TableSource source, List<String> columns) {
        List<Field> fields = new ArrayList<>(columns.size());
        for (String c : columns) {
            fields.add(source.schema().field(c));
        }
        return new Schema(fields);
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of();
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return this;
    }

    @Override
    public PlanProperties properties() {
        return PlanProperties.of(taskStarts.size() <= 1 ? new Partitioning.Single()
                : new Partitioning.Unknown(taskStarts.size()));
    }

    @Override
    public CardinalityEffect cardinalityEffect() {
        return CardinalityEffect.EQUAL;
    }

    /** Uses the filters to skip row groups; all of them stay above (a partial pushdown). */
    @Override
    public FilterPushdown pushFilters(List<Expr> filters) {
        if (partitions.stream().allMatch(p -> p.stats().isEmpty())) {
            return FilterPushdown.none(this, filters); // no statistics (CSV, not partitioned): nothing to prune with
        }
        List<Expr> newPruning = new ArrayList<>(pruning);
        for (Expr f : filters) {
            if (!newPruning.contains(f)) {
                newPruning.add(f);
            }
        }
        Schema tableSchema = source.schema();
        List<ScanPartition> kept = new ArrayList<>();
        for (ScanPartition p : partitions) {
            if (RowGroupPruner.mayMatch(p, newPruning, tableSchema)) {
                kept.add(p);
            }
        }
        return new FilterPushdown(new FileScanExec(source, columns, kept, newPruning, List.of(), schema, UNKNOWN_ROWS,
                listedFiles, hadoop), filters);
    }

    /** A projection that only picks columns of this scan becomes the scan's column list. */
    @Override
    public Optional<ExecutionPlan> trySwappingWithProjection(List<Expr> projection) {
        List<String> picked = new ArrayList<>();
        List<Field> fields = new ArrayList<>();
        for (Expr e : projection) {
            if (!(e instanceof Column c) || !columns.contains(c.column()) || picked.contains(c.column())) {
                return Optional.empty();
            }
            picked.add(c.column());
            fields.add(schema.field(columns.indexOf(c.column())));
        }
        return Optional.of(new FileScanExec(source, picked, partitions, pruning, List.of(), new Schema(fields),
                UNKNOWN_ROWS, listedFiles, hadoop, taskStarts, List.of()));
    }

    @Override
    public String describe() {
        return "FileScanExec: " + Redaction.uris(source.name()) + " (" + source.format().name().toLowerCase() + ", "
                + partitions.size() + " partitions" + (taskStarts.size() < partitions.size() ? " in " + taskStarts.size() + " tasks" : "")
                + ") " + ScanFiles.describe(partitions, listedFiles, source)
                + "columns=" + columns + TableScan.narrowed(schema, source.schema())
                + (source.options().isEmpty() ? "" : " options=" + Redaction.values(source.options()))
                + (pruning.isEmpty() ? "" : " pruning=" + listed(pruning))
                + (runtimePruning.isEmpty() ? "" : " runtime_pruning=" + listed(runtimePruning))
                + (rowFilters.isEmpty() ? "" : " row_filters=" + rowFilters);
    }

    private static String listed(List<Expr> exprs) {
        return exprs.stream().map(Expr::toString).collect(Collectors.joining(", ", "[", "]"));
    }

    /** The hosts of the task's file blocks (HDFS; a task packs partitions of the same hosts only), or none. */
    @Override
    public List<String> preferredHosts(int partition) {
        return partitions.isEmpty() ? List.of() : partitions.get(taskStarts.get(partition)).hosts();
    }

    /**
     * The task's scan partitions read one after another, the next ones opened ahead while one is
     * read ({@link StoreReadAhead}): a task of many small files on an object store does not wait on
     * each file's GET in turn.
     */
    @Override
    public BatchStream execute(int partition, TaskContext context) {
        if (partitions.isEmpty()) {
            return BatchStream.empty();
        }
        int end = partition + 1 < taskStarts.size() ? taskStarts.get(partition + 1) : partitions.size();
        List<ScanPartition> task = partitions.subList(taskStarts.get(partition), end);
        ScanRowFilter rows = ScanRowTests.of(pruning, rowFilters, columns, source, context);
        if (task.size() == 1) {
            long start = System.nanoTime();
            BatchStream stream = read(task.get(0), context, rows);
            ReadWaits.since(start);
            return stream;
        }
        return new SequentialStream(task.size(), i -> read(task.get(i), context, rows),
                StoreReadAhead.of(task.get(0).path(), i -> bytesHeldOpen(task.get(i))));
    }

    /**
     * At most what a partition holds once opened ahead (its chunks read, not decoded): its byte range,
     * or its file; unknown: as much as a task may hold ahead, so it opens ahead only alone.
     */
    private static long bytesHeldOpen(ScanPartition partition) {
        return partition.isRange() ? partition.length()
                : partition.fileLength() >= 0 ? partition.fileLength() : StoreReadAhead.MAX_BYTES;
    }

    /**
     * Reads a partition, or nothing when the runtime filters' key ranges rule it out. A byte range
     * holds row groups whose merged statistics rule out nothing where each one's own may: its parts
     * ({@link FormatReader#parts}) are tested one by one against the pushed filters and the runtime
     * ranges, and only those that may hold a passing row are read.
     */
    private BatchStream read(ScanPartition scanned, TaskContext context, ScanRowFilter rows) {
        Schema tableSchema = source.schema();
        if (!runtimePruning.isEmpty() && !RowGroupPruner.mayMatch(scanned, runtimePruning, tableSchema)) {
            return BatchStream.empty();
        }
        if (scanned.isRange() && !(pruning.isEmpty() && runtimePruning.isEmpty())) {
            List<ScanPartition> parts = FileFormats.reader(source.format()).parts(scanned);
            List<ScanPartition> kept = parts.stream().filter(part -> RowGroupPruner.mayMatch(part, pruning, tableSchema)
                    && RowGroupPruner.mayMatch(part, runtimePruning, tableSchema)).toList();
            if (kept.isEmpty()) {
                return BatchStream.empty();
            }
            if (kept.size() < parts.size()) {
                context.recordFileOpened();
                return new SequentialStream(kept.size(), i -> open(kept.get(i), context, rows),
                        StoreReadAhead.of(scanned.path(), i -> kept.get(i).length()));
            }
        }
        context.recordFileOpened();
        return open(scanned, context, rows);
    }

    private BatchStream open(ScanPartition scanned, TaskContext context, ScanRowFilter rows) {
        return BatchStream.cancellable(HadoopConfiguration.withOverrides(hadoop, () -> {
            // the stream reads after withOverrides returns: it holds its override set's file systems open
            HadoopConfiguration.Lease lease = HadoopConfiguration.lease();
            try {
                return holding(ScanFiles.read(FileFormats.reader(source.format()), scanned, source, columns, schema,
                        context.batchSize(), context.allocator(), rows), lease);
            } catch (RuntimeException | Error e) {
                lease.close();
                throw e;
            }
        }), context);
    }

    /** {@code stream}, letting go of {@code lease} when it is closed. */
    private static BatchStream holding(BatchStream stream, HadoopConfiguration.Lease lease) {
        return new BatchStream() {
            @Override
            public Batch next() {
                return stream.next();
            }

            @Override
            public void close() {
                try {
                    stream.close();
                } finally {
                    lease.close();
                }
            }
        };
    }
}
