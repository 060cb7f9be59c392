package io.sluice.operators.window;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.expr.WindowCall;
import io.sluice.logical.expr.WindowFunction;
import io.sluice.operators.Distribution;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.KeyOrder;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import io.sluice.operators.expr.BoundExprs;
import io.sluice.operators.memory.MemoryReservation;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Computes window functions sharing one PARTITION BY and ORDER BY (each entry of
 * {@code windowExprs} a {@link WindowCall}, maybe aliased): outputs every input column, then one
 * column per call.
 *
 * <p>It states what it needs through the operator contract and nothing else: rows of a partition
 * together (key-partitioned on the PARTITION BY keys, or one partition without them) and sorted by
 * the PARTITION BY keys (ascending) then the ORDER BY keys, so the physical optimizer adds the
 * exchange and sort, or reuses an input already so arranged (a window over the same keys below).
 * It keeps its input's partitioning and order (rows pass through in order), but does not let a
 * LIMIT through: each output row depends on other input rows, so {@code cardinalityEffect} stays
 * unknown.
 *
 * <p>Execution streams over the sorted input and buffers only the partition still open: when a
 * batch starts a new partition, the rows before it form whole partitions, computed together in one
 * pass ({@link WindowBlock}, {@link WindowFunctions}) and emitted in batches of the task's size. So
 * memory is the largest partition plus a batch, beside what the sort below holds. The open
 * partition's rows are reserved from the task's memory pool as they are buffered. When the pool
 * refuses them, the partition goes to disk and is computed from there chunk by chunk
 * ({@link WindowSpill}), if every call can be computed so (ranking functions, running and
 * whole-partition sum, count, min and max); otherwise (lag, lead, the value functions, avg,
 * frames with offsets) the partition is taken from the whole budget or, past it, fails the task
 * with a memory error naming this operator, its usage and the limit.
 */
public record WindowExec(ExecutionPlan input, List<Expr> windowExprs, Schema schema, PlanProperties properties, long estimatedRows)
        implements ExecutionPlan {
    public WindowExec {
        requireNonNull(input, "input is null");
        requireNonNull(schema, "schema is null");
        requireNonNull(properties, "properties is null");
        windowExprs = List.copyOf(windowExprs);
        if (windowExprs.isEmpty()) {
            throw new IllegalArgumentException("a window operator needs a window function");
        }
        for (Expr e : windowExprs) {
            if (!call(e).sameWindow(call(windowExprs.get(0)))) {
                throw new IllegalArgumentException("window calls over different windows in one operator: " + windowExprs);
            }
        }
    }

    /** Not estimated (yet): the planner sets the estimate with {@link #withEstimatedRows}. */
    public WindowExec(ExecutionPlan input, List<Expr> windowExprs, Schema schema, PlanProperties properties) {
        this(input, windowExprs, schema, properties, UNKNOWN_ROWS);
    }

    @Override
    public ExecutionPlan withEstimatedRows(long rows) {
        return new WindowExec(input, windowExprs, schema, properties, rows);
    }

    /** Derives schema and properties once, here. */
    public WindowExec(ExecutionPlan input, List<Expr> windowExprs) {
        this(input, windowExprs, schemaOf(input.schema(), windowExprs), propertiesOf(input.properties()));
    }

    private static WindowCall call(Expr e) {
        if (Exprs.unalias(e) instanceof WindowCall call) {
            return call;
        }
        throw new IllegalArgumentException("not a window call: " + e);
    }

    private static Schema schemaOf(Schema input, List<Expr> windowExprs) {
        List<Field> fields = new ArrayList<>(input.fields());
        for (Expr e : windowExprs) {
            fields.add(new Field(e.name(), e.type(input)));
        }
        return new Schema(fields);
    }

    /** Input columns pass through unchanged and in order: partitioning, order and equalities hold. */
    private static PlanProperties propertiesOf(PlanProperties in) {
        return new PlanProperties(in.partitioning(), in.ordering(), in.bounded(), in.equivalences(), in.constants());
    }

    private WindowCall window() {
        return call(windowExprs.get(0));
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(input);
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new WindowExec(children.get(0), windowExprs).withEstimatedRows(estimatedRows);
    }

    @Override
    public List<Distribution> requiredInputDistribution() {
        List<Expr> keys = window().partitionBy();
        return List.of(keys.isEmpty() ? Distribution.SINGLE : new Distribution.KeyPartitioned(keys));
    }

    @Override
    public List<List<SortKey>> requiredInputOrdering() {
        return List.of(sortKeys());
    }

    /** PARTITION BY keys ascending (any fixed order groups them), then the ORDER BY keys. */
    private List<SortKey> sortKeys() {
        List<SortKey> keys = new ArrayList<>();
        for (Expr p : window().partitionBy()) {
            keys.add(SortKey.asc(p));
        }
        keys.addAll(window().orderBy());
        return keys;
    }

    @Override
    public List<Boolean> maintainsInputOrder() {
        return List.of(true);
    }

    @Override
    public List<Boolean> benefitsFromInputPartitioning() {
        return List.of(!window().partitionBy().isEmpty());
    }

    @Override
    public String describe() {
        return "WindowExec: " + windowExprs.stream().map(Expr::toString).collect(Collectors.joining(", "));
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        return new WindowStream(input.execute(partition, context), context);
    }

    /** The expressions evaluated per input batch: PARTITION BY keys, ORDER BY keys, then per call its value and default. */
    private final class Evaluated {
        final List<Expr> exprs = new ArrayList<>();
        final int partitionKeys;
        final int orderKeys;
        final int[] value;
        final int[] fallback;
        final DataType[] resultTypes;

        Evaluated() {
            WindowCall window = window();
            exprs.addAll(window.partitionBy());
            window.orderBy().forEach(k -> exprs.add(k.expr()));
            partitionKeys = window.partitionBy().size();
            orderKeys = window.orderBy().size();
            int calls = windowExprs.size();
            value = new int[calls];
            fallback = new int[calls];
            resultTypes = new DataType[calls];
            Schema in = input.schema();
            for (int c = 0; c < calls; c++) {
                WindowCall call = call(windowExprs.get(c));
                resultTypes[c] = call.type(in);
                value[c] = -1;
                fallback[c] = -1;
                boolean hasValue = call.function() != WindowFunction.NTILE && !call.arguments().isEmpty();
                if (hasValue) {
                    value[c] = exprs.size();
                    exprs.add(call.arguments().get(0));
                }
                if (call.arguments().size() == 3) {
                    Expr d = call.arguments().get(2);
                    fallback[c] = exprs.size();
                    exprs.add(d.type(in).equals(resultTypes[c]) ? d : new Cast(d, resultTypes[c]));
                }
            }
        }

        /** {@link #exprs} bound to the input's columns, on the first batch. */
        private BoundExprs bound;

        Col[] evaluate(Batch batch) {
            if (bound == null) {
                bound = new BoundExprs(exprs, input.schema());
            }
            Col[] out = new Col[exprs.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = bound.evaluate(i, batch);
            }
            return out;
        }
    }

    /**
     * Pulls sorted input, cuts it after whole partitions and computes each cut block. The input
     * batches are held as they come ({@link WindowRows}) and leave with the computed columns added:
     * only the window's keys and arguments are evaluated, the other columns pass through.
     */
    private final class WindowStream implements BatchStream {
        private final BatchStream in;
        private final TaskContext context;
        private final Evaluated evaluated = new Evaluated();
        private final KeyOrder partitionOrder;
        private final KeyOrder peerOrder;
        private final ArrayDeque<Batch> ready = new ArrayDeque<>();
        /** Rows of the partition still open, and of whole partitions not computed yet. */
        private final WindowRows pending = new WindowRows();
        private boolean done;
        /** Heap bytes of the pending rows (their Arrow buffers count in the task's allocator). */
        private final MemoryReservation memory;
        /** Whether an open partition that memory refuses may go to disk ({@link WindowSpill#canSpill}). */
        private final boolean spillable;
        /** The open partition on disk, or null (then it is pending in memory). */
        private WindowSpill spill;
        /** A spilled partition being computed and emitted, or null. */
        private BatchStream replay;
        /** The batch whose rows from {@link #deferredFrom} follow a spilled partition's end, accepted once its replay is out. */
        private Batch deferred;
        private Col[] deferredEvaluated;
        private int deferredFrom;

        WindowStream(BatchStream in, TaskContext context) {
            this.in = in;
            this.context = context;
            this.memory = context.reserve(describe());
            List<SortKey> partitionKeys = new ArrayList<>();
            window().partitionBy().forEach(p -> partitionKeys.add(SortKey.asc(p)));
            partitionOrder = new KeyOrder(partitionKeys);
            peerOrder = new KeyOrder(window().orderBy());
            spillable = WindowSpill.canSpill(windowExprs.stream().map(WindowExec::call).toList());
        }

        @Override
        public Batch next() {
            while (true) {
                if (!ready.isEmpty()) {
                    return ready.poll();
                }
                if (replay != null) {
                    Batch b = replay.next();
                    if (b != null) {
                        return b;
                    }
                    replay.close();
                    replay = null;
                    if (deferred != null) {
                        Batch rest = deferred;
                        deferred = null;
                        accept(rest, deferredEvaluated, deferredFrom);
                    }
                    continue;
                }
                if (done) {
                    return null;
                }
                Batch batch = in.next();
                if (batch == null) {
                    done = true;
                    flush();
                } else if (batch.rowCount() == 0) {
                    batch.close();
                } else {
                    Col[] columns;
                    try {
                        columns = evaluated.evaluate(batch);
                    } catch (RuntimeException | Error e) {
                        batch.close();
                        throw e;
                    }
                    accept(batch, columns, 0);
                }
            }
        }

        /** Takes rows {@code [from, rows)} of {@code batch} (this stream now owns it); {@code columns} are its evaluated columns. */
        private void accept(Batch batch, Col[] columns, int from) {
            int rows = batch.rowCount();
            Col[] keys = partitionKeys(columns);
            if (spill != null) {
                acceptSpilled(batch, columns, keys, from);
                return;
            }
            int cut = WindowBlock.lastPartitionStart(keys, from, rows, partitionOrder);
            if (cut == from && !pending.isEmpty() && keys.length > 0) {
                if (!WindowBlock.continues(keys, from, partitionKeys(pending.lastEvaluated()), pending.lastRow(),
                        partitionOrder)) {
                    flush();
                }
            } else if (cut > from) {
                memory.grow(pending.add(batch, from, cut - from, columns, false));
                flush();
            }
            pendOpen(batch, columns, cut);
        }

        /**
         * Rows while the open partition is on disk: those of that partition are appended to it; at
         * its end it is computed from disk ({@link #replay}) and the rest of the batch waits.
         */
        private void acceptSpilled(Batch batch, Col[] columns, Col[] keys, int from) {
            int rows = batch.rowCount();
            int end = rows;
            if (keys.length > 0) {
                if (!WindowBlock.continues(keys, from, spill.lastKeys(), 0, partitionOrder)) {
                    end = from;
                } else {
                    for (int i = from + 1; i < rows && end == rows; i++) {
                        if (partitionOrder.compare(keys, i - 1, keys, i) != 0) {
                            end = i;
                        }
                    }
                }
            }
            try {
                spill.write(batch.columns(), columns, evaluated.partitionKeys, from, end - from);
            } catch (RuntimeException | Error e) {
                batch.close();
                throw e;
            }
            if (end < rows) {
                replaySpill();
                deferred = batch;
                deferredEvaluated = columns;
                deferredFrom = end;
            } else {
                batch.close();
            }
        }

        private void replaySpill() {
            WindowSpill ended = spill;
            spill = null;
            try {
                replay = ended.replay();
            } catch (RuntimeException | Error e) {
                ended.close();
                throw e;
            }
        }

        /**
         * Pends rows {@code [from, rows)} of the open partition within the task's spillable share;
         * when refused, the partition goes to disk if every call can be computed from there, else
         * the rows are taken from the whole budget or the task fails with the memory message.
         */
        private void pendOpen(Batch batch, Col[] columns, int from) {
            int count = batch.rowCount() - from;
            if (count == 0) {
                batch.close();
                return;
            }
            long bytes = pending.add(batch, from, count, columns, true);
            if (!memory.tryGrow(bytes)) {
                if (spillable) {
                    Schema in = input.schema();
                    spill = new WindowSpill(in, schema, evaluated.exprs.stream().map(e -> e.type(in)).toList(),
                            windowExprs.stream().map(WindowExec::call).toList(), evaluated.resultTypes, evaluated.value,
                            evaluated.partitionKeys, evaluated.orderKeys, peerOrder, context, memory);
                    memory.resize(0);
                    pending.spill(spill, evaluated.partitionKeys);
                    return;
                }
                memory.grow(bytes);
            }
        }

        private Col[] partitionKeys(Col[] evaluatedColumns) {
            Col[] keys = new Col[evaluated.partitionKeys];
            System.arraycopy(evaluatedColumns, 0, keys, 0, keys.length);
            return keys;
        }

        /** Computes the pending rows (whole partitions) and queues them as output batches. */
        private void flush() {
            if (spill != null) {
                replaySpill();
                return;
            }
            if (pending.isEmpty()) {
                return;
            }
            Col[] evaluatedColumns = pending.evaluated(evaluated.exprs.size());
            int rows = pending.rows();
            int p = evaluated.partitionKeys;
            Col[] partitionKeys = Arrays.copyOfRange(evaluatedColumns, 0, p);
            Col[] orderKeys = Arrays.copyOfRange(evaluatedColumns, p, p + evaluated.orderKeys);
            WindowBlock block = WindowBlock.of(rows, partitionKeys, partitionOrder, orderKeys, peerOrder);
            Col[] computed = new Col[windowExprs.size()];
            Col orderKey = orderKeys.length > 0 ? orderKeys[0] : null;
            for (int c = 0; c < computed.length; c++) {
                Col value = evaluated.value[c] < 0 ? null : evaluatedColumns[evaluated.value[c]];
                Col fallback = evaluated.fallback[c] < 0 ? null : evaluatedColumns[evaluated.fallback[c]];
                computed[c] = WindowFunctions.compute(call(windowExprs.get(c)), evaluated.resultTypes[c],
                        block, value, fallback, orderKey);
            }
            pending.emit(schema, computed, context.batchSize(), context.allocator(), ready::add);
            // the rows now live in the queued batches
            memory.resize(0);
        }

        @Override
        public void close() {
            try {
                ready.forEach(Batch::close);
                ready.clear();
                pending.close();
                if (deferred != null) {
                    deferred.close();
                }
                if (replay != null) {
                    replay.close();
                }
                if (spill != null) {
                    spill.close();
                }
                in.close();
            } finally {
                memory.close();
            }
        }
    }
}
