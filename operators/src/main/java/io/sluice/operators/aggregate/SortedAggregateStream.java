package io.sluice.operators.aggregate;

import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.IntList;
import io.sluice.operators.KeyOrder;
import io.sluice.operators.TaskContext;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Aggregation over input whose rows with equal group keys are adjacent (sorted on the keys): no
 * hash table, and groups are emitted as soon as they close. Each input batch is cut into runs of
 * equal keys; every run but the last is a finished group and goes out with that batch; the last
 * one stays open, carried into the next batch as one group of partial state (the accumulators'
 * {@code states}, merged back into fresh accumulators), so that at most one group outlives a batch.
 *
 * <p>Keys compare with {@link KeyOrder} equality: NULLs form one group, {@code -0.0 == 0.0}.
 */
final class SortedAggregateStream implements BatchStream {
    private final BatchStream input;
    private final List<Expr> groupBy;
    private final boolean partial;
    private final AggregateInputs inputs;
    private final Supplier<Accumulator[]> fresh;
    private final Schema schema;
    private final TaskContext context;
    private final KeyOrder equality;
    private Col[] openKey;       // key values of the open group (one row), or null
    private Col[][] openStates;  // its partial state per accumulator
    private boolean done;
    private Col[] pending;       // finished groups not yet returned, rows [pendingAt, pendingRows)
    private int pendingRows;
    private int pendingAt;

    /**
     * @param inputs the group keys and, in the partial phase, the calls' arguments, bound to the
     *     input; the final phase reads state columns after the keys
     */
    SortedAggregateStream(BatchStream input, List<Expr> groupBy, boolean partial, AggregateInputs inputs,
            Supplier<Accumulator[]> fresh, Schema schema, TaskContext context) {
        this.input = input;
        this.groupBy = groupBy;
        this.partial = partial;
        this.inputs = inputs;
        this.fresh = fresh;
        this.schema = schema;
        this.context = context;
        List<SortKey> keys = new ArrayList<>();
        for (Expr g : groupBy) {
            keys.add(SortKey.asc(g));
        }
        this.equality = new KeyOrder(keys);
    }

    @Override
    public Batch next() {
        while (pending == null || pendingAt >= pendingRows) {
            pending = null;
            if (done) {
                return null;
            }
            Batch batch = input.next();
            if (batch == null) {
                done = true;
                if (openKey != null) {
                    flushOpen();
                }
                continue;
            }
            try (Batch b = batch) {
                if (b.rowCount() > 0) {
                    consume(b);
                }
            }
        }
        int count = Math.min(context.batchSize(), pendingRows - pendingAt);
        Col[] out = new Col[pending.length];
        for (int c = 0; c < out.length; c++) {
            out[c] = pending[c].slice(pendingAt, count);
        }
        pendingAt += count;
        return Batch.of(schema, out, count, context.allocator());
    }

    /** Aggregates one batch; the groups it finished become {@link #pending} output. */
    private void consume(Batch batch) {
        int rows = batch.rowCount();
        Col[] keys = new Col[groupBy.size()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = inputs.key(i, batch);
        }
        // Group 0 is the open group carried in; the batch's first run joins it when its key is equal.
        boolean carried = openKey != null;
        int first = carried && equality.compare(openKey, 0, keys, 0) == 0 ? 0 : (carried ? 1 : 0);
        int[] groups = new int[rows];
        IntList runStarts = new IntList(16);
        int g = first;
        runStarts.add(0);
        groups[0] = g;
        for (int r = 1; r < rows; r++) {
            if (equality.compare(keys, r - 1, keys, r) != 0) {
                g++;
                runStarts.add(r);
            }
            groups[r] = g;
        }
        int groupCount = g + 1;
        Accumulator[] accumulators = fresh.get();
        for (int i = 0; i < accumulators.length; i++) {
            accumulators[i].ensureCapacity(groupCount);
            if (carried) {
                accumulators[i].merge(new int[] {0}, 1, openStates[i]);
            }
        }
        int column = keys.length;
        for (int i = 0; i < accumulators.length; i++) {
            if (partial) {
                accumulators[i].update(groups, rows, inputs.argument(i, batch));
            } else {
                int width = accumulators[i].stateTypes().size();
                Col[] states = new Col[width];
                for (int s = 0; s < width; s++) {
                    states[s] = batch.column(column + s);
                }
                column += width;
                accumulators[i].merge(groups, rows, states);
            }
        }
        // Key of each group: the carried key for a group 0 of its own, else its run's first row.
        int finished = groupCount - 1;
        Col[] groupKeys = new Col[keys.length];
        int[] starts = runStarts.array();
        int runs = runStarts.size();
        for (int k = 0; k < keys.length; k++) {
            Col fromRuns = keys[k].gather(starts, runs);
            groupKeys[k] = first == 1 ? Col.concat(keys[k].type, List.of(openKey[k], fromRuns)) : fromRuns;
        }
        openKey = new Col[keys.length];
        for (int k = 0; k < keys.length; k++) {
            openKey[k] = groupKeys[k].slice(finished, 1);
        }
        openStates = new Col[accumulators.length][];
        for (int i = 0; i < accumulators.length; i++) {
            openStates[i] = accumulators[i].states(finished, 1);
        }
        if (finished > 0) {
            output(groupKeys, accumulators, finished);
        }
    }

    /** The first {@code count} groups as pending output columns: keys, then states (partial) or values (final). */
    private void output(Col[] groupKeys, Accumulator[] accumulators, int count) {
        Col[] out = new Col[schema.size()];
        for (int k = 0; k < groupKeys.length; k++) {
            out[k] = groupKeys[k].slice(0, count);
        }
        int column = groupKeys.length;
        for (Accumulator a : accumulators) {
            if (partial) {
                for (Col state : a.states(0, count)) {
                    out[column++] = state;
                }
            } else {
                out[column++] = a.result(0, count);
            }
        }
        pending = out;
        pendingRows = count;
        pendingAt = 0;
    }

    private void flushOpen() {
        Accumulator[] accumulators = fresh.get();
        for (int i = 0; i < accumulators.length; i++) {
            accumulators[i].ensureCapacity(1);
            accumulators[i].merge(new int[] {0}, 1, openStates[i]);
        }
        Col[] key = openKey;
        openKey = null;
        openStates = null;
        output(key, accumulators, 1);
    }

    @Override
    public void close() {
        input.close();
    }
}
