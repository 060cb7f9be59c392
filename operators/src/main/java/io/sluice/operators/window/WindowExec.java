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
import io.sluice.operators.ColChunks;
import io.sluice.operators.Distribution;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.KeyOrder;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.TaskContext;
import io.sluice.operators.expr.BoundExprs;
import io.sluice.operators.memory.HeapSize;
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

    /** Pulls sorted input, cuts it after whole partitions and computes each cut block. */
    private final class WindowStream implements BatchStream {
        private final BatchStream in;
        private final TaskContext context;
        private final Evaluated evaluated = new Evaluated();
        private final KeyOrder partitionOrder;
        private final KeyOrder peerOrder;
        private final ArrayDeque<Batch> ready = new ArrayDeque<>();
        /** Rows of the partition still open: input columns and evaluated columns, chunk by chunk. */
        private final List<Col[]> pendingInput = new ArrayList<>();
        private final List<Col[]> pendingEvaluated = new ArrayList<>();
        private int pendingRows;
        private boolean done;
        /** Heap bytes of the pending rows, and of the computed partition until it is emitted. */
        private final MemoryReservation memory;
        /** Whether an open partition that memory refuses may go to disk ({@link WindowSpill#canSpill}). */
        private final boolean spillable;
        /** The open partition on disk, or null (then it is pending in memory). */
        private WindowSpill spill;
        /** A spilled partition being computed and emitted, or null. */
        private BatchStream replay;
        /** The rows of the batch after a spilled partition's end, accepted once its replay is out. */
        private Col[][] deferred;

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
                        Col[][] rest = deferred;
                        deferred = null;
                        accept(rest[0], rest[1], rest[1][0].length);
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
                } else {
                    try (Batch b = batch) {
                        if (b.rowCount() > 0) {
                            accept(b.columns(), evaluated.evaluate(b), b.rowCount());
                        }
                    }
                }
            }
        }

        private void accept(Col[] inputColumns, Col[] evaluatedColumns, int rows) {
            Col[] keys = partitionKeys(evaluatedColumns);
            if (spill != null) {
                acceptSpilled(inputColumns, evaluatedColumns, keys, rows);
                return;
            }
            int cut = WindowBlock.lastPartitionStart(keys, rows, partitionOrder);
            if (cut == 0 && !pendingInput.isEmpty() && keys.length > 0) {
                Col[] last = pendingEvaluated.get(pendingEvaluated.size() - 1);
                if (!WindowBlock.continues(keys, 0, partitionKeys(last), last[0].length - 1, partitionOrder)) {
                    flush();
                }
            } else if (cut > 0) {
                pend(inputColumns, evaluatedColumns, 0, cut);
                flush();
            }
            pendOpen(inputColumns, evaluatedColumns, cut, rows - cut);
        }

        /**
         * Rows while the open partition is on disk: those of that partition are appended to it; at
         * its end it is computed from disk ({@link #replay}) and the rest of the batch waits.
         */
        private void acceptSpilled(Col[] inputColumns, Col[] evaluatedColumns, Col[] keys, int rows) {
            int end = rows;
            if (keys.length > 0) {
                if (!WindowBlock.continues(keys, 0, spill.lastKeys(), 0, partitionOrder)) {
                    end = 0;
                } else {
                    for (int i = 1; i < rows && end == rows; i++) {
                        if (partitionOrder.compare(keys, i - 1, keys, i) != 0) {
                            end = i;
                        }
                    }
                }
            }
            spill.write(inputColumns, evaluatedColumns, evaluated.partitionKeys, 0, end);
            if (end < rows) {
                replaySpill();
                deferred = new Col[][] {ColChunks.slice(inputColumns, end, rows - end),
                    ColChunks.slice(evaluatedColumns, end, rows - end)};
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
         * Pends rows of the open partition within the task's spillable share; when refused, the
         * partition goes to disk if every call can be computed from there, else the rows are
         * taken from the whole budget or the task fails with the memory message.
         */
        private void pendOpen(Col[] inputColumns, Col[] evaluatedColumns, int from, int count) {
            if (count == 0) {
                return;
            }
            Col[] pendingIn = ColChunks.slice(inputColumns, from, count);
            Col[] pendingOut = ColChunks.slice(evaluatedColumns, from, count);
            long bytes = HeapSize.of(pendingIn) + HeapSize.of(pendingOut);
            if (!memory.tryGrow(bytes)) {
                if (spillable) {
                    Schema in = input.schema();
                    spill = new WindowSpill(in, schema, evaluated.exprs.stream().map(e -> e.type(in)).toList(),
                            windowExprs.stream().map(WindowExec::call).toList(), evaluated.resultTypes, evaluated.value,
                            evaluated.partitionKeys, evaluated.orderKeys, peerOrder, context, memory);
                    for (int i = 0; i < pendingInput.size(); i++) {
                        Col[] chunk = pendingEvaluated.get(i);
                        spill.write(pendingInput.get(i), chunk, evaluated.partitionKeys, 0, chunk[0].length);
                    }
                    pendingInput.clear();
                    pendingEvaluated.clear();
                    pendingRows = 0;
                    memory.resize(0);
                    spill.write(pendingIn, pendingOut, evaluated.partitionKeys, 0, count);
                    return;
                }
                memory.grow(bytes);
            }
            pendingInput.add(pendingIn);
            pendingEvaluated.add(pendingOut);
            pendingRows += count;
        }

        private void pend(Col[] inputColumns, Col[] evaluatedColumns, int from, int count) {
            Col[] pendingIn = ColChunks.slice(inputColumns, from, count);
            Col[] pendingOut = ColChunks.slice(evaluatedColumns, from, count);
            memory.grow(HeapSize.of(pendingIn) + HeapSize.of(pendingOut));
            pendingInput.add(pendingIn);
            pendingEvaluated.add(pendingOut);
            pendingRows += count;
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
            if (pendingInput.isEmpty()) {
                return;
            }
            Schema inputSchema = input.schema();
            Col[] inputColumns = concat(pendingInput, inputSchema.size());
            Col[] evaluatedColumns = concat(pendingEvaluated, evaluated.exprs.size());
            int rows = pendingRows;
            pendingInput.clear();
            pendingEvaluated.clear();
            pendingRows = 0;
            int p = evaluated.partitionKeys;
            Col[] partitionKeys = Arrays.copyOfRange(evaluatedColumns, 0, p);
            Col[] orderKeys = Arrays.copyOfRange(evaluatedColumns, p, p + evaluated.orderKeys);
            WindowBlock block = WindowBlock.of(rows, partitionKeys, partitionOrder, orderKeys, peerOrder);
            Col[] out = new Col[schema.size()];
            System.arraycopy(inputColumns, 0, out, 0, inputColumns.length);
            Col orderKey = orderKeys.length > 0 ? orderKeys[0] : null;
            for (int c = 0; c < windowExprs.size(); c++) {
                Col value = evaluated.value[c] < 0 ? null : evaluatedColumns[evaluated.value[c]];
                Col fallback = evaluated.fallback[c] < 0 ? null : evaluatedColumns[evaluated.fallback[c]];
                out[inputColumns.length + c] = WindowFunctions.compute(call(windowExprs.get(c)), evaluated.resultTypes[c],
                        block, value, fallback, orderKey);
            }
            int batchSize = context.batchSize();
            for (int from = 0; from < rows; from += batchSize) {
                int count = Math.min(batchSize, rows - from);
                ready.add(Batch.of(schema, ColChunks.slice(out, from, count), count, context.allocator()));
            }
            // the rows now live in the queued Arrow batches, which the task's allocator accounts
            memory.resize(0);
        }

        private static Col[] concat(List<Col[]> chunks, int width) {
            Col[] out = new Col[width];
            for (int i = 0; i < width; i++) {
                List<Col> parts = new ArrayList<>(chunks.size());
                for (Col[] chunk : chunks) {
                    parts.add(chunk[i]);
                }
                out[i] = Col.concat(parts.get(0).type, parts);
            }
            return out;
        }

        @Override
        public void close() {
            try {
                ready.forEach(Batch::close);
                ready.clear();
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
