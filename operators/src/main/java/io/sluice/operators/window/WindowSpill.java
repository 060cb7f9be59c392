package io.sluice.operators.window;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.WindowCall;
import io.sluice.logical.expr.WindowFrame.BoundKind;
import io.sluice.logical.expr.WindowFrame;
import io.sluice.operators.ColChunks;
import io.sluice.operators.KeyOrder;
import io.sluice.operators.TaskContext;
import io.sluice.operators.memory.HeapSize;
import io.sluice.operators.memory.MemoryReservation;
import io.sluice.operators.memory.SpillFiles;
import io.sluice.operators.memory.SpillRun;
import io.sluice.operators.sort.ExternalSorter;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One window partition too large for the task's memory, on disk: its rows (input columns, then the
 * window's evaluated expressions) are appended in order to a run of compressed Arrow IPC
 * ({@link SpillRun}) as they arrive, and when the partition ends it is read back and computed
 * chunk by chunk ({@link #replay}), carrying across chunks what each function needs of the rows
 * before: the row's position, its peer group's start, the number of peer groups so far and a
 * running aggregate's value so far; the partition's row count is known from the run. Chunks are cut
 * at peer-group ends (rows with equal ORDER BY values), so memory is a chunk plus the largest peer
 * group; a peer group that cannot fit fails with the memory message naming the window.
 *
 * <p>Only functions that can be computed this way spill ({@link #canSpill}): {@code row_number},
 * {@code rank}, {@code dense_rank}, {@code percent_rank}, {@code cume_dist}, {@code ntile}, and
 * {@code sum}, {@code count}, {@code min} and {@code max} over a running frame (from UNBOUNDED
 * PRECEDING to CURRENT ROW, ROWS or RANGE: the default with ORDER BY) or over the whole partition
 * (which reads the run twice: the total first). A window with another call ({@code lag},
 * {@code lead}, the value functions, {@code avg}, frames with offsets) still needs its partition
 * in memory and fails as before.
 */
final class WindowSpill implements AutoCloseable {
    /** How a supported aggregate's frame reads the partition. */
    private enum Frame { RUNNING, WHOLE }

    private static final WindowFrame ROWS_RUNNING = new WindowFrame(WindowFrame.Units.ROWS,
            WindowFrame.Bound.UNBOUNDED_PRECEDING, WindowFrame.Bound.CURRENT_ROW);

    private final Schema schema;
    private final Schema spillSchema;
    private final List<WindowCall> calls;
    private final DataType[] resultTypes;
    private final int[] value;
    private final int orderFrom;
    private final int orderKeys;
    private final KeyOrder peerOrder;
    private final TaskContext context;
    private final MemoryReservation memory;
    private final Path file;
    private final SpillRun.Writer writer;
    private final long start = System.nanoTime();
    /** The partition keys of the last row written (one row), to tell where the partition ends. */
    private Col[] lastKeys;

    /**
     * @param schema the window's output schema
     * @param evaluatedTypes the types of the evaluated expressions (partition keys first, then
     *                       {@code orderKeys} ORDER BY keys, then the calls' arguments)
     * @param value per call, the index of its argument among the evaluated expressions (-1: none)
     */
    WindowSpill(Schema inputSchema, Schema schema, List<DataType> evaluatedTypes, List<WindowCall> calls,
            DataType[] resultTypes, int[] value, int partitionKeys, int orderKeys, KeyOrder peerOrder, TaskContext context,
            MemoryReservation memory) {
        this.schema = requireNonNull(schema, "schema is null");
        this.calls = List.copyOf(calls);
        this.resultTypes = resultTypes.clone();
        this.value = value.clone();
        this.orderFrom = inputSchema.size() + partitionKeys;
        this.orderKeys = orderKeys;
        this.peerOrder = requireNonNull(peerOrder, "peerOrder is null");
        this.context = requireNonNull(context, "context is null");
        this.memory = requireNonNull(memory, "memory is null");
        List<Field> fields = new ArrayList<>(inputSchema.fields());
        for (int i = 0; i < evaluatedTypes.size(); i++) {
            fields.add(new Field("__window_" + i, evaluatedTypes.get(i)));
        }
        this.spillSchema = new Schema(fields);
        this.file = context.spillFiles().newFile("window-partition");
        this.writer = new SpillRun.Writer(file, spillSchema, context.allocator());
    }

    /** Whether every call can be computed from a spilled partition (see the class comment). */
    static boolean canSpill(List<WindowCall> calls) {
        for (WindowCall call : calls) {
            boolean ok = switch (call.function()) {
                case ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST, NTILE -> true;
                case SUM, COUNT, COUNT_STAR, MIN, MAX -> frame(call) != null;
                default -> false;
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** RUNNING, WHOLE, or null for a frame that needs rows around each row. */
    private static Frame frame(WindowCall call) {
        WindowFrame f = call.frame();
        if (f.start().kind() != BoundKind.UNBOUNDED_PRECEDING) {
            return null;
        }
        return switch (f.end().kind()) {
            case UNBOUNDED_FOLLOWING -> Frame.WHOLE;
            // RANGE ... CURRENT ROW without ORDER BY: every row is a peer of every other
            case CURRENT_ROW -> f.units() == WindowFrame.Units.RANGE && call.orderBy().isEmpty() ? Frame.WHOLE : Frame.RUNNING;
            default -> null;
        };
    }

    /** Appends rows {@code [from, from + count)} of the partition (input columns, then evaluated ones). */
    void write(Col[] inputColumns, Col[] evaluatedColumns, int partitionKeys, int from, int count) {
        if (count == 0) {
            return;
        }
        Col[] row = new Col[inputColumns.length + evaluatedColumns.length];
        System.arraycopy(inputColumns, 0, row, 0, inputColumns.length);
        System.arraycopy(evaluatedColumns, 0, row, inputColumns.length, evaluatedColumns.length);
        writer.write(row, from, count, ExternalSorter.SPILL_BATCH_ROWS);
        lastKeys = new Col[partitionKeys];
        for (int k = 0; k < partitionKeys; k++) {
            lastKeys[k] = evaluatedColumns[k].slice(from + count - 1, 1);
        }
        context.checkNotCancelled();
    }

    /** The partition keys of the last row written (one row each). */
    Col[] lastKeys() {
        return lastKeys;
    }

    /** Ends the partition: its rows computed, in order, in batches of the task's size. This object closes with the stream. */
    BatchStream replay() {
        long bytes = writer.finish();
        memory.recordSpill(bytes, System.nanoTime() - start);
        return new Replay(writer.rows());
    }

    /** Deletes the run (after {@link #replay}, the replay's reader has done so). */
    @Override
    public void close() {
        writer.close();
        SpillFiles.delete(file);
    }

    /** Reads the run back chunk by chunk and computes each chunk with what the rows before it left. */
    private final class Replay implements BatchStream {
        private final long rows;
        private final Col[] totals;
        private final SpillRun.Reader reader;
        private final ArrayDeque<Batch> ready = new ArrayDeque<>();
        /** Rows of a peer group not yet complete (waiting for the next batch), or null. */
        private Col[] held;
        private boolean ended;
        /** Rows of the partition computed so far; peer groups among them; running values per call after them. */
        private long position;
        private long peerGroups;
        private final Col[] carry;

        Replay(long rows) {
            this.rows = rows;
            this.carry = new Col[calls.size()];
            this.totals = wholeFrameTotals();
            this.reader = new SpillRun.Reader(file, spillSchema, context.allocator());
        }

        /** The whole-partition aggregates' values (null entries for the other calls), from a first read of the run. */
        private Col[] wholeFrameTotals() {
            Col[] out = new Col[calls.size()];
            boolean any = false;
            for (WindowCall call : calls) {
                any |= call.function().aggregate() != null && frame(call) == Frame.WHOLE;
            }
            if (!any) {
                return out;
            }
            try (SpillRun.Reader first = new SpillRun.Reader(file, spillSchema, context.allocator(), false)) {
                Col[] chunk;
                while ((chunk = first.next()) != null) {
                    int n = chunk[0].length;
                    WindowBlock block = WindowBlock.of(n, new Col[0], peerOrder, new Col[0], peerOrder);
                    for (int c = 0; c < calls.size(); c++) {
                        WindowCall call = calls.get(c);
                        if (call.function().aggregate() != null && frame(call) == Frame.WHOLE) {
                            Col running = running(c, chunk, block, ROWS_RUNNING, out[c]);
                            out[c] = running.slice(n - 1, 1);
                        }
                    }
                    context.checkNotCancelled();
                }
            }
            return out;
        }

        @Override
        public Batch next() {
            while (ready.isEmpty() && !ended) {
                Col[] batch = reader.next();
                Col[] chunk;
                int emit;
                if (batch == null) {
                    ended = true;
                    if (held == null) {
                        break;
                    }
                    chunk = held;
                    emit = chunk[0].length;
                } else {
                    chunk = held == null ? batch : ColChunks.concat(List.of(held, batch));
                    int n = chunk[0].length;
                    // the last peer group may go on in the next batch: hold it back
                    emit = orderKeys == 0 ? n : WindowBlock.lastPartitionStart(orderKeyColumns(chunk), 0, n, peerOrder);
                }
                int n = chunk[0].length;
                held = emit == n ? null : ColChunks.slice(chunk, emit, n - emit);
                memory.resize(held == null ? 0 : HeapSize.of(held));
                if (emit > 0) {
                    compute(emit == n ? chunk : ColChunks.slice(chunk, 0, emit));
                }
                context.checkNotCancelled();
            }
            return ready.poll();
        }

        @Override
        public void close() {
            try {
                ready.forEach(Batch::close);
                ready.clear();
                held = null;
                reader.close();
            } finally {
                memory.resize(0);
                WindowSpill.this.close();
            }
        }

        private Col[] orderKeyColumns(Col[] chunk) {
            return Arrays.copyOfRange(chunk, orderFrom, orderFrom + orderKeys);
        }

        /** Computes a chunk that ends at a peer group's end and queues it as output batches. */
        private void compute(Col[] chunk) {
            int n = chunk[0].length;
            Col[] order = orderKeyColumns(chunk);
            WindowBlock block = WindowBlock.of(n, new Col[0], peerOrder, order, peerOrder);
            int inputWidth = schema.size() - calls.size();
            Col[] out = new Col[schema.size()];
            System.arraycopy(chunk, 0, out, 0, inputWidth);
            long groupsHere = 0;
            for (int i = 0; i < n; i++) {
                if (block.peerStart[i] == i) {
                    groupsHere++;
                }
            }
            for (int c = 0; c < calls.size(); c++) {
                out[inputWidth + c] = column(c, chunk, block);
            }
            position += n;
            peerGroups += groupsHere;
            int batchSize = context.batchSize();
            for (int from = 0; from < n; from += batchSize) {
                int count = Math.min(batchSize, n - from);
                ready.add(Batch.of(schema, ColChunks.slice(out, from, count), count, context.allocator()));
            }
        }

        /** Call {@code c}'s column over a chunk whose first row is row {@link #position} of the partition. */
        private Col column(int c, Col[] chunk, WindowBlock block) {
            WindowCall call = calls.get(c);
            int n = block.rows;
            boolean ordered = orderKeys > 0;
            long[] longs = new long[n];
            double[] doubles = new double[n];
            switch (call.function()) {
                case ROW_NUMBER -> {
                    for (int i = 0; i < n; i++) {
                        longs[i] = position + i + 1;
                    }
                }
                case RANK -> {
                    for (int i = 0; i < n; i++) {
                        longs[i] = ordered ? position + block.peerStart[i] + 1 : 1;
                    }
                }
                case DENSE_RANK -> {
                    long rank = peerGroups;
                    for (int i = 0; i < n; i++) {
                        if (block.peerStart[i] == i) {
                            rank++;
                        }
                        longs[i] = ordered ? rank : 1;
                    }
                }
                case PERCENT_RANK -> {
                    for (int i = 0; i < n; i++) {
                        long rank = ordered ? position + block.peerStart[i] : 0;
                        doubles[i] = rows > 1 ? (double) rank / (rows - 1) : 0;
                    }
                    return Col.ofDoubles(doubles, null);
                }
                case CUME_DIST -> {
                    for (int i = 0; i < n; i++) {
                        doubles[i] = ordered ? (double) (position + block.peerEnd[i]) / rows : 1.0;
                    }
                    return Col.ofDoubles(doubles, null);
                }
                case NTILE -> {
                    // as WindowFunctions.ntile, over the whole partition
                    long buckets = Math.min(call.constantArgument(), rows);
                    long small = rows / buckets;
                    long large = rows - buckets * small;
                    long inLarge = large * (small + 1);
                    for (int i = 0; i < n; i++) {
                        long at = position + i;
                        longs[i] = at < inLarge ? 1 + at / (small + 1) : 1 + large + (at - inLarge) / small;
                    }
                }
                default -> {
                    if (frame(call) == Frame.WHOLE) {
                        return totals[c].gatherOrNull(new int[n], n);
                    }
                    Col running = running(c, chunk, block, call.frame(), carry[c]);
                    carry[c] = running.slice(n - 1, 1);
                    return running;
                }
            }
            return Col.ofLongs(DataType.INT64, longs, null);
        }

        /**
         * Call {@code c}'s aggregate over {@code frame} (from the partition's start) for each row of
         * a chunk, given its value after the rows before ({@code before}, one row; null at the
         * start): counts add it; sums, minimums and maximums see it as one more row before the chunk.
         */
        private Col running(int c, Col[] chunk, WindowBlock block, WindowFrame frame, Col before) {
            WindowCall call = calls.get(c);
            AggregateFunction function = call.function().aggregate();
            Col arg = value[c] < 0 ? null : chunk[schema.size() - calls.size() + value[c]];
            int n = block.rows;
            boolean count = function == AggregateFunction.COUNT || function == AggregateFunction.COUNT_STAR;
            if (before == null || count) {
                Col out = FrameAggregates.compute(function, arg, WindowFrames.of(frame, block, null, null), n, resultTypes[c],
                        call.toString());
                if (before == null) {
                    return out;
                }
                long[] sums = new long[n];
                for (int i = 0; i < n; i++) {
                    sums[i] = out.longs[i] + before.longs[0];
                }
                return Col.ofLongs(out.type, sums, null);
            }
            Col withBefore = Col.concat(arg.type, List.of(before.type.equals(arg.type) ? before : before.withType(arg.type), arg));
            Col out = FrameAggregates.compute(function, withBefore, WindowFrames.of(frame, block.withLeadingRow(), null, null),
                    n + 1, resultTypes[c], call.toString());
            return out.slice(1, n);
        }
    }
}
