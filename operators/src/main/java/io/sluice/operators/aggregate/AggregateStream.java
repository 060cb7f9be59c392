package io.sluice.operators.aggregate;

import static java.util.Objects.requireNonNull;

import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.ColChunks;
import io.sluice.operators.TaskContext;
import io.sluice.operators.hash.GroupTable;
import io.sluice.operators.memory.MemoryReservation;
import io.sluice.operators.sort.ExternalSorter;
import java.util.ArrayList;
import java.util.List;

/**
 * One partition of a {@link HashAggregateExec}, within the task's memory. After each input batch
 * the reservation is resized to the table's and accumulators' estimated size. When that is
 * refused:
 * <ul>
 *   <li>a partial phase emits its groups so far as partial states and starts an empty table (the
 *       final phase merges partial states anyway, so early output is only less reduction);</li>
 *   <li>a final phase writes its table, as partial states sorted by the group keys, as a run on
 *       disk and starts an empty table. At the end the last table joins the runs, the runs are
 *       merged in key order ({@link ExternalSorter}), and the merged states are folded group after
 *       group: equal keys arrive together, so only the group being read is kept in memory.</li>
 * </ul>
 * A global aggregate (no keys) holds one group and never spills.
 */
final class AggregateStream implements BatchStream {
    private final HashAggregateExec aggregate;
    private final BatchStream input;
    private final TaskContext context;
    private final MemoryReservation reservation;
    private final boolean partial;
    private GroupTable table;
    private Accumulator[] accumulators;
    private boolean inputDone;
    private BatchStream emitting;
    private ExternalSorter sorter;
    private BatchStream merged;
    private final AggregateInputs inputs;
    private boolean mergedDone;

    AggregateStream(HashAggregateExec aggregate, AggregateInputs inputs, BatchStream input, TaskContext context) {
        this.aggregate = requireNonNull(aggregate, "aggregate is null");
        this.inputs = requireNonNull(inputs, "inputs is null");
        this.input = requireNonNull(input, "input is null");
        this.context = requireNonNull(context, "context is null");
        this.partial = aggregate.mode() == AggregateMode.PARTIAL;
        this.reservation = context.reserve(aggregate.describe());
        resetTable();
    }

    private void resetTable() {
        table = new GroupTable(aggregate.keyTypes());
        accumulators = aggregate.newAccumulators();
        if (aggregate.groupBy().isEmpty()) {
            table.addEmptyKeyGroup();
            for (Accumulator a : accumulators) {
                a.ensureCapacity(1);
            }
        }
    }

    private long tableBytes() {
        long bytes = table.heapBytes();
        for (Accumulator a : accumulators) {
            bytes += a.heapBytes();
        }
        return bytes;
    }

    @Override
    public Batch next() {
        while (true) {
            if (emitting != null) {
                Batch b = emitting.next();
                if (b != null) {
                    return b;
                }
                emitting = null;
                if (inputDone && merged == null) {
                    // The last table is out: its memory goes back before the consumer goes on.
                    table = new GroupTable(aggregate.keyTypes());
                    accumulators = aggregate.newAccumulators();
                    reservation.free();
                }
            }
            if (merged != null) {
                return mergedDone ? null : nextMerged();
            }
            if (inputDone) {
                return null;
            }
            fill();
        }
    }

    /** Consumes input until it ends, or until a partial phase must emit early. */
    private void fill() {
        Batch batch;
        while ((batch = input.next()) != null) {
            try (Batch b = batch) {
                aggregate.consume(b, inputs, table, accumulators);
            }
            long bytes = tableBytes() + spillSortHeadroom();
            if (reservation.tryResize(bytes)) {
                continue;
            }
            if (aggregate.groupBy().isEmpty() || table.groupCount() == 0) {
                reservation.resize(bytes);
            } else if (partial) {
                emitting = emission(table, accumulators, true);
                resetTable();
                return;
            } else {
                spillTable();
            }
        }
        inputDone = true;
        if (sorter != null) {
            spillTable();
            merged = sorter.finish(reservation.peak());
            resetTable();
        } else {
            emitting = emission(table, accumulators, partial);
        }
    }

    /**
     * What a final aggregate keeps reserved beyond its table for sorting the table when it spills
     * (the radix sort's index and scratch arrays, {@link io.sluice.operators.KeyOrder#sortMemory}:
     * 40 bytes a group and 8 per later key), so that the sort can have them then, when the pool is
     * short; a partial aggregate emits instead of sorting.
     */
    private long spillSortHeadroom() {
        int keys = aggregate.groupBy().size();
        return partial || keys == 0 ? 0 : (40L + 8L * (keys - 1)) * table.groupCount();
    }

    /** Writes the table as partial states sorted by key to a run, and starts an empty table. */
    private void spillTable() {
        if (sorter == null) {
            List<SortKey> keys = new ArrayList<>();
            for (Expr k : aggregate.groupBy()) {
                keys.add(new SortKey(k, true, true));
            }
            sorter = new ExternalSorter(aggregate.input().schema(), keys, context, aggregate.describe() + " (spill)");
        }
        int groups = table.groupCount();
        if (groups > 0) {
            // the headroom goes back to the pool, for the sorter to take for sorting the run
            reservation.resize(Math.min(reservation.size(), tableBytes()));
            Col[] states = aggregate.output(table, accumulators, 0, groups, true);
            Col[] keys = java.util.Arrays.copyOf(states, aggregate.groupBy().size());
            sorter.writeRun(states, keys, groups);
        }
        resetTable();
        reservation.resize(tableBytes());
    }

    /**
     * Folds the merged, key-ordered states batch by batch: every group but the last of a batch is
     * complete and emitted; the last one's states are carried into a fresh table.
     */
    private Batch nextMerged() {
        while (true) {
            Batch in = merged.next();
            if (in == null) {
                mergedDone = true;
                return table.groupCount() == 0 ? null : lastBatch();
            }
            try (Batch b = in) {
                aggregate.consume(b, inputs, table, accumulators);
            }
            reservation.resize(tableBytes());
            int groups = table.groupCount();
            if (groups > 1) {
                Batch out = aggregate.outputBatch(table, accumulators, 0, groups - 1, false, context.allocator());
                Col[] carry = aggregate.output(table, accumulators, groups - 1, 1, true);
                resetTable();
                try (Batch c = Batch.of(aggregate.input().schema(), carry, 1, context.allocator())) {
                    aggregate.consume(c, inputs, table, accumulators);
                } catch (RuntimeException | Error e) {
                    out.close();
                    throw e;
                }
                return out;
            }
        }
    }

    private Batch lastBatch() {
        int groups = table.groupCount();
        Batch out = aggregate.outputBatch(table, accumulators, 0, groups, false, context.allocator());
        resetTable();
        return out;
    }

    /**
     * The groups of a table in batches of the task's batch size, written as Arrow straight from the
     * table (string keys as bytes) and the accumulators: the next stage, the shuffle writer (which
     * holds and gathers Arrow only) or the client reads Arrow.
     */
    private BatchStream emission(GroupTable groups, Accumulator[] values, boolean states) {
        return ColChunks.batches(groups.groupCount(), context,
                (from, count) -> aggregate.outputBatch(groups, values, from, count, states, context.allocator()), () -> { });
    }

    @Override
    public void close() {
        try {
            input.close();
        } finally {
            try {
                if (merged != null) {
                    merged.close();
                }
                if (sorter != null) {
                    sorter.close();
                }
            } finally {
                reservation.close();
            }
        }
    }
}
