package io.sluice.operators.sort;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.CardinalityEffect;
import io.sluice.operators.Distribution;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.FilterPushdown;
import io.sluice.operators.KeyOrder;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import io.sluice.operators.expr.BoundExprs;
import io.sluice.operators.filter.FilterExec;
import io.sluice.operators.memory.MemoryReservation;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/**
 * Sorts by {@code keys}. With {@code preservePartitioning} each partition is sorted on its own;
 * otherwise the sort is global and requires its input in one partition. A {@code limit} keeps
 * only the first rows (a top-k).
 */
public record SortExec(ExecutionPlan input, List<SortKey> keys, long limit, boolean preservePartitioning,
        PlanProperties properties, long estimatedRows) implements ExecutionPlan {
    public static final long NO_FETCH = -1;

    public SortExec {
        requireNonNull(properties, "properties is null");
        requireNonNull(input, "input is null");
        keys = List.copyOf(keys);
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("sort needs a key");
        }
        if (limit < NO_FETCH) {
            throw new IllegalArgumentException("bad limit " + limit);
        }
        for (SortKey k : keys) {
            k.expr().type(input.schema());
        }
    }

    /** Not estimated (yet): the planner sets the estimate with {@link #withEstimatedRows}. */
    public SortExec(ExecutionPlan input, List<SortKey> keys, long limit, boolean preservePartitioning, PlanProperties properties) {
        this(input, keys, limit, preservePartitioning, properties, UNKNOWN_ROWS);
    }

    @Override
    public ExecutionPlan withEstimatedRows(long rows) {
        return new SortExec(input, keys, limit, preservePartitioning, properties, rows);
    }

    /** Derives the properties once, here. */
    public SortExec(ExecutionPlan input, List<SortKey> keys, long limit, boolean preservePartitioning) {
        this(input, keys, limit, preservePartitioning, propertiesOf(input, List.copyOf(keys), preservePartitioning));
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
        return new SortExec(children.get(0), keys, limit, preservePartitioning).withEstimatedRows(estimatedRows);
    }

    private static PlanProperties propertiesOf(ExecutionPlan input, List<SortKey> keys, boolean preservePartitioning) {
        PlanProperties in = input.properties();
        Partitioning partitioning = preservePartitioning ? in.partitioning() : new Partitioning.Single();
        // Sorting moves no column values, so equalities between columns still hold.
        return new PlanProperties(partitioning, keys, in.bounded(), in.equivalences());
    }

    @Override
    public List<Distribution> requiredInputDistribution() {
        return List.of(preservePartitioning ? Distribution.UNSPECIFIED : Distribution.SINGLE);
    }

    @Override
    public boolean supportsLimitPushdown() {
        return true;
    }

    /**
     * Becomes a top-k. A global top-k also asks its input to keep only the top rows of each
     * partition before the exchange that feeds it, when the input can ({@code tryPushdownSort}).
     */
    @Override
    public Optional<ExecutionPlan> withFetch(long newFetch) {
        long fetch = limit == NO_FETCH ? newFetch : Math.min(limit, newFetch);
        ExecutionPlan newInput = preservePartitioning ? input : input.tryPushdownSort(keys, fetch).orElse(input);
        return Optional.of(new SortExec(newInput, keys, fetch, preservePartitioning));
    }

    /** Filtering commutes with sorting (not with a top-k); filtering first sorts fewer rows. */
    @Override
    public FilterPushdown pushFilters(List<Expr> filters) {
        if (limit != NO_FETCH) {
            return FilterPushdown.none(this, filters);
        }
        return new FilterPushdown(new SortExec(new FilterExec(input, Exprs.and(filters)), keys, limit,
                preservePartitioning), List.of());
    }

    /** Redundant when each partition it would sort is already in this order and nothing is cut. */
    @Override
    public Optional<ExecutionPlan> removeIfRedundant() {
        PlanProperties in = input.properties();
        boolean samePartitions = preservePartitioning || in.partitioning().partitionCount() == 1;
        if (limit == NO_FETCH && samePartitions && in.orderingSatisfies(keys)) {
            return Optional.of(input);
        }
        return Optional.empty();
    }

    @Override
    public OptionalLong fetch() {
        return limit == NO_FETCH ? OptionalLong.empty() : OptionalLong.of(limit);
    }

    @Override
    public CardinalityEffect cardinalityEffect() {
        return limit == NO_FETCH ? CardinalityEffect.EQUAL : CardinalityEffect.LOWER_EQUAL;
    }

    @Override
    public String describe() {
        return "SortExec: " + (limit == NO_FETCH ? "" : "TopK(fetch=" + limit + "), ")
                + "[" + keys.stream().map(SortKey::toString).collect(Collectors.joining(", ")) + "]"
                + (preservePartitioning ? ", preserve_partitioning" : "");
    }

    /** A full sort buffers every row within the task's memory, spilling sorted runs past it; a top-k keeps at most 2k rows plus a batch ({@link TopKBuffer}). */
    @Override
    public BatchStream execute(int partition, TaskContext context) {
        if (limit == 0) {
            return BatchStream.empty();
        }
        return limit == NO_FETCH ? sortAll(partition, context) : topK(partition, context);
    }

    private BatchStream topK(int partition, TaskContext context) {
        TopKBuffer buffer = new TopKBuffer(new KeyOrder(keys), (int) Math.min(limit, Integer.MAX_VALUE - 8));
        MemoryReservation reservation = context.reserve(describe());
        Col[] kept;
        try {
            forEachBatch(partition, context, (columns, keyColumns, rows) -> {
                buffer.add(columns, keyColumns, rows);
                reservation.resize(buffer.heapBytes());
            });
            kept = buffer.result();
            reservation.resize(buffer.heapBytes());
        } catch (RuntimeException | Error e) {
            reservation.close();
            throw e;
        }
        if (kept == null) {
            reservation.close();
            return BatchStream.empty();
        }
        int rows = buffer.size();
        int[] identity = new int[rows];
        for (int i = 0; i < rows; i++) {
            identity[i] = i;
        }
        return ExternalSorter.emit(schema(), kept, identity, rows, context, reservation::close);
    }

    /** What a sort does with each input batch: its columns, its evaluated keys and its row count. */
    private interface BatchConsumer {
        void accept(Col[] columns, Col[] keys, int rows);
    }

    /** Reads the partition, handing each batch's columns and sort keys to {@code consumer}; closes the input. */
    private void forEachBatch(int partition, TaskContext context, BatchConsumer consumer) {
        BoundExprs keyExprs = BoundExprs.ofSortKeys(keys, input.schema());
        try (BatchStream in = input.execute(partition, context)) {
            Batch batch;
            while ((batch = in.next()) != null) {
                try (Batch b = batch) {
                    consumer.accept(b.columns(), keyExprs.evaluateAll(b), b.rowCount());
                }
            }
        }
    }

    /**
     * Buffers the partition's Arrow batches within the task's memory and sorts them on normalized
     * keys ({@link io.sluice.operators.sort.NormalizedKeySort}); when memory is refused the
     * buffered rows go to disk as a sorted run and the runs are merged at the end ({@link ExternalSorter}).
     */
    private BatchStream sortAll(int partition, TaskContext context) {
        ExternalSorter sorter = new ExternalSorter(input.schema(), keys, context, describe());
        try {
            try (BatchStream in = input.execute(partition, context)) {
                Batch batch;
                while ((batch = in.next()) != null) {
                    sorter.add(batch);
                }
            }
            return sorter.finish();
        } catch (RuntimeException | Error e) {
            sorter.close();
            throw e;
        }
    }
}
