package io.sluice.operators.sort;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import io.sluice.kernels.ArrowChunkGather;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.kernels.Utf8Bytes;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.ColChunks;
import io.sluice.operators.KeyOrder;
import io.sluice.operators.TaskContext;
import io.sluice.operators.expr.BoundExprs;
import io.sluice.operators.memory.HeapSize;
import io.sluice.operators.memory.MemoryReservation;
import io.sluice.operators.memory.SpillRun;
import io.sluice.operators.sort.NormalizedKeySort.KeyColumn;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.TransferPair;

/**
 * The buffer of a full sort, within the task's memory. Input batches are kept as the Arrow vectors
 * they arrive in (ownership taken, nothing unpacked or decoded) together with their sort keys
 * ({@link NormalizedKeySort.KeyColumn}: numbers as primitive arrays, strings as UTF-8 bytes). The
 * Arrow buffers count in the task's pool through its allocator; the sort reserves the heap: twice
 * the keys (they are concatenated before the sort) and what the sort takes
 * ({@link NormalizedKeySort#sortMemory}), so that sorting a full
 * buffer never needs more than the buffer holds. The sorted order is a row index; output batches
 * are gathered from the buffered vectors straight into new Arrow vectors ({@link ArrowChunkGather}).
 * When the reservation is refused, the buffered rows are sorted and written as one run of
 * compressed Arrow IPC ({@link SpillRun}) and the memory is given back; at the end the runs and
 * the rest are merged ({@link RunMerger}). An aggregate spilling its table hands heap columns to
 * {@link #writeRun}, sorted by {@link KeyOrder}.
 */
public final class ExternalSorter implements AutoCloseable {
    private final Schema schema;
    private final List<SortKey> keys;
    private BoundExprs boundKeys; // the keys bound on the first batch
    private final KeyOrder order;
    private final TaskContext context;
    private final MemoryReservation reservation;
    /** Buffered input batches, owned, and their sort keys. */
    private final List<VectorSchemaRoot> arrowChunks = new ArrayList<>();
    private final List<KeyColumn[]> keyChunks = new ArrayList<>();
    /** Arrow bytes of the buffered batches, and heap bytes of their keys. */
    private long arrowBytes;
    private long keyBytes;
    /** Sort memory reserved with the buffered batches (estimated batch by batch). */
    private long sortReserved;
    private final List<Path> runs = new ArrayList<>();
    private int buffered;
    /** Estimated heap bytes of one batch read back from a run (from the rows spilled last). */
    private long runBatchBytes;
    /** Rows per batch in a run: small, so that merging many runs holds little. */
    public static final int SPILL_BATCH_ROWS = 1024;

    public ExternalSorter(Schema schema, List<SortKey> keys, TaskContext context, String consumer) {
        this.schema = requireNonNull(schema, "schema is null");
        this.keys = List.copyOf(keys);
        this.order = new KeyOrder(keys);
        this.context = requireNonNull(context, "context is null");
        this.reservation = context.reserve(consumer);
    }

    /**
     * Buffers a batch's rows, spilling first if memory is refused. Takes the batch (closes it): its
     * Arrow vectors move into the buffer; a batch built from heap columns is written to Arrow once.
     */
    void add(Batch batch) {
        int rows = batch.rowCount();
        VectorSchemaRoot root;
        KeyColumn[] keyColumns;
        try (batch) {
            if (rows == 0) {
                return;
            }
            batch.root();
            keyColumns = evaluateKeys(batch);
            root = transfer(batch.root());
        }
        long bytes = bufferBytes(root);
        long keyHeap = 0;
        for (KeyColumn k : keyColumns) {
            keyHeap += k.heapBytes();
        }
        long sortBytes = NormalizedKeySort.sortMemory(keyColumns, rows);
        // the Arrow buffers count already (the task allocator's listener); reserved here: the heap
        long cost = 2 * keyHeap + sortBytes;
        try {
            if (!reservation.tryGrow(cost)) {
                if (buffered > 0) {
                    spill();
                }
                reservation.grow(cost);
            }
        } catch (RuntimeException | Error e) {
            root.close();
            throw e;
        }
        arrowChunks.add(root);
        keyChunks.add(keyColumns);
        arrowBytes += bytes;
        keyBytes += keyHeap;
        sortReserved += sortBytes;
        buffered += rows;
    }

    /**
     * A batch's sort keys: a string column that arrives as Arrow as its bytes (copied, not decoded),
     * any other key evaluated.
     */
    private KeyColumn[] evaluateKeys(Batch batch) {
        if (boundKeys == null) { // bound to the first batch's schema: this sorter is given none of its own
            boundKeys = BoundExprs.ofSortKeys(keys, batch.schema());
        }
        KeyColumn[] out = new KeyColumn[keys.size()];
        for (int i = 0; i < out.length; i++) {
            Utf8Bytes bytes = boundKeys.utf8(i, batch);
            out[i] = bytes != null ? KeyColumn.of(bytes) : KeyColumn.of(boundKeys.evaluate(i, batch));
        }
        return out;
    }

    /** The vectors of {@code root} moved into new ones of this task's allocator (the batch keeps empty vectors). */
    private VectorSchemaRoot transfer(VectorSchemaRoot root) {
        List<FieldVector> vectors = new ArrayList<>(root.getFieldVectors().size());
        for (FieldVector v : root.getFieldVectors()) {
            TransferPair pair = v.getTransferPair(context.allocator());
            pair.transfer();
            vectors.add((FieldVector) pair.getTo());
        }
        return new VectorSchemaRoot(root.getSchema().getFields(), vectors, root.getRowCount());
    }

    private static long bufferBytes(VectorSchemaRoot root) {
        long bytes = 0;
        for (FieldVector v : root.getFieldVectors()) {
            bytes += v.getBufferSize();
        }
        return bytes;
    }

    /** Rows written to disk so far, in runs. */
    int runCount() {
        return runs.size();
    }

    /** All rows in order; the sorter must stay open until the stream is closed. */
    public BatchStream finish() {
        if (runs.isEmpty()) {
            if (buffered == 0) {
                close();
                return BatchStream.empty();
            }
            int rows = buffered;
            int[] sorted = sortBuffered();
            SortedChunks chunks = takeChunks();
            reservation.resize(HeapSize.ints(rows));
            arrowBytes = 0;
            return chunks.stream(schema, sorted, rows, context, this::close);
        }
        return finish(reservation.peak());
    }

    /**
     * The buffered rows' order (its sort's memory, reserved batch by batch on estimates, made up
     * here if the whole buffer needs more); the keys are dropped.
     */
    private int[] sortBuffered() {
        KeyColumn[] keyColumns = new KeyColumn[keys.size()];
        for (int k = 0; k < keyColumns.length; k++) {
            List<KeyColumn> parts = new ArrayList<>(keyChunks.size());
            for (KeyColumn[] chunk : keyChunks) {
                parts.add(chunk[k]);
            }
            keyColumns[k] = KeyColumn.concat(parts);
        }
        keyChunks.clear();
        long need = NormalizedKeySort.sortMemory(keyColumns, buffered);
        if (need > sortReserved) {
            reservation.grow(need - sortReserved);
            sortReserved = need;
        }
        int[] sorted = NormalizedKeySort.sort(order, keyColumns, buffered);
        keyBytes = 0;
        sortReserved = 0;
        return sorted;
    }

    /** The buffered vectors, handed over (the caller closes them). */
    private SortedChunks takeChunks() {
        SortedChunks chunks = new SortedChunks(List.copyOf(arrowChunks));
        arrowChunks.clear();
        buffered = 0;
        return chunks;
    }

    /**
     * All rows in order, merging the runs within about {@code mergeMemory} bytes: when one batch of
     * every run would not fit, groups of consecutive runs are first merged into longer runs (keeping
     * ties in arrival order), pass after pass.
     */
    public BatchStream finish(long mergeMemory) {
        if (runs.isEmpty()) {
            return finish();
        }
        if (buffered > 0) {
            spill();
        }
        reservation.free();
        int fanIn = (int) Math.max(2, Math.min(256, mergeMemory / 2 / Math.max(1, runBatchBytes)));
        while (runs.size() > fanIn) {
            List<Path> current = List.copyOf(runs);
            List<Path> merged = new ArrayList<>();
            for (int i = 0; i < current.size(); i += fanIn) {
                List<Path> group = current.subList(i, Math.min(current.size(), i + fanIn));
                merged.add(group.size() == 1 ? group.get(0) : mergeToRun(group));
            }
            runs.clear();
            runs.addAll(merged);
        }
        RunMerger merger = new RunMerger(schema, keys, List.copyOf(runs), context, reservation);
        runs.clear();
        return merger;
    }

    /** One merge pass over {@code group}: a new run holding their rows in order; their files are deleted. */
    private Path mergeToRun(List<Path> group) {
        long start = System.nanoTime();
        Path file = context.spillFiles().newFile("sort-run");
        long bytes;
        // The group's runs leave the list of runs to delete (the merger deletes them); the new one joins it.
        runs.removeAll(group);
        runs.add(file);
        try (RunMerger merger = new RunMerger(schema, keys, group, context, context.reserve(reservation.consumer()
                + " merge pass")); SpillRun.Writer writer = new SpillRun.Writer(file, schema, context.allocator())) {
            Batch batch;
            while ((batch = merger.next()) != null) {
                try (Batch b = batch) {
                    writer.write(b.columns(), 0, b.rowCount(), SPILL_BATCH_ROWS);
                }
            }
            bytes = writer.finish();
        } catch (RuntimeException | Error e) {
            io.sluice.operators.memory.SpillFiles.delete(file);
            throw e;
        }
        reservation.recordSpill(bytes, System.nanoTime() - start);
        return file;
    }

    /** Sorts the buffered rows (their sort's memory reserved with them), writes them as one run and gives their memory back. */
    private void spill() {
        long start = System.nanoTime();
        int rows = buffered;
        long rowBytes = (arrowBytes + 2 * keyBytes) / Math.max(1, rows);
        int[] sorted = sortBuffered();
        runBatchBytes = Math.max(runBatchBytes, rowBytes * Math.min(rows, SPILL_BATCH_ROWS));
        Path file = context.spillFiles().newFile("sort-run");
        runs.add(file);
        long bytes;
        try (SortedChunks chunks = takeChunks();
                SpillRun.Writer writer = new SpillRun.Writer(file, schema, context.allocator())) {
            for (int from = 0; from < rows; from += SPILL_BATCH_ROWS) {
                int n = Math.min(SPILL_BATCH_ROWS, rows - from);
                try (VectorSchemaRoot root = chunks.gather(sorted, from, n, context.allocator())) {
                    writer.write(root);
                }
                context.checkNotCancelled();
            }
            bytes = writer.finish();
        }
        arrowBytes = 0;
        reservation.free();
        reservation.recordSpill(bytes, System.nanoTime() - start);
    }

    /**
     * Sorts rows the caller holds (and has reserved memory for) and writes them as one run: an
     * aggregate moving its table to disk. The sort's own memory is reserved here: the radix sort's
     * if the pool gives it, else the comparison sort's, which needs little ({@link KeyOrder#sortMemory}).
     */
    public void writeRun(Col[] all, Col[] keyColumns, int rows) {
        long start = System.nanoTime();
        long radix = order.sortMemory(keyColumns, rows, true);
        boolean fast = reservation.tryGrow(radix);
        long held = fast ? radix : order.sortMemory(keyColumns, rows, false);
        if (!fast) {
            reservation.grow(held);
        }
        int[] sorted;
        try {
            sorted = order.sortedIndexes(keyColumns, rows, fast);
        } finally {
            reservation.shrink(held);
        }
        writeSorted(all, keyColumns, sorted, rows, start);
    }

    /** Writes rows {@code sorted[0..rows)} of {@code all} as one run. */
    private void writeSorted(Col[] all, Col[] keyColumns, int[] sorted, int rows, long start) {
        long rowBytes = (HeapSize.of(all) + HeapSize.of(keyColumns)) / Math.max(1, rows);
        runBatchBytes = Math.max(runBatchBytes, rowBytes * Math.min(rows, SPILL_BATCH_ROWS));
        Path file = context.spillFiles().newFile("sort-run");
        runs.add(file);
        long bytes;
        int batchSize = SPILL_BATCH_ROWS;
        try (SpillRun.Writer writer = new SpillRun.Writer(file, schema, context.allocator())) {
            for (int from = 0; from < rows; from += batchSize) {
                int n = Math.min(batchSize, rows - from);
                int[] slice = java.util.Arrays.copyOfRange(sorted, from, from + n);
                writer.write(ColChunks.gather(all, slice, n), 0, n, batchSize);
                context.checkNotCancelled();
            }
            bytes = writer.finish();
        }
        reservation.recordSpill(bytes, System.nanoTime() - start);
    }

    /** Rows {@code sorted[0..total)} of {@code all}, in batches of the task's batch size; {@code onClose} runs on close. */
    static BatchStream emit(Schema schema, Col[] all, int[] sorted, int total, TaskContext context, Runnable onClose) {
        return ColChunks.inBatches(schema, total, context,
                (from, count) -> ColChunks.gather(all, java.util.Arrays.copyOfRange(sorted, from, from + count), count),
                onClose);
    }

    /** Gives the memory back, closes the buffered vectors and deletes runs not handed to a merger. */
    @Override
    public void close() {
        arrowChunks.forEach(VectorSchemaRoot::close);
        arrowChunks.clear();
        keyChunks.clear();
        buffered = 0;
        for (Path run : runs) {
            io.sluice.operators.memory.SpillFiles.delete(run);
        }
        runs.clear();
        reservation.close();
    }

    /**
     * Buffered batches as Arrow vectors, and the gathering of their rows in sorted order into
     * new batches. A row's number is its position in the buffer: batches one after another.
     */
    static final class SortedChunks implements AutoCloseable {
        private final List<VectorSchemaRoot> chunks;
        /** Per column, its vectors in every chunk. */
        private final ArrowChunkGather.Chunks[] columns;
        /** First row of each chunk, and past the last. */
        private final int[] starts;
        /** The rows of every chunk when all but the last have that many and the last no more (a row's chunk is then a division), else 0. */
        private final int uniform;

        SortedChunks(List<VectorSchemaRoot> chunks) {
            this.chunks = chunks;
            int columns = chunks.isEmpty() ? 0 : chunks.get(0).getFieldVectors().size();
            FieldVector[][] vectors = new FieldVector[columns][chunks.size()];
            starts = new int[chunks.size() + 1];
            boolean same = true;
            for (int k = 0; k < chunks.size(); k++) {
                VectorSchemaRoot chunk = chunks.get(k);
                for (int c = 0; c < columns; c++) {
                    vectors[c][k] = chunk.getVector(c);
                }
                starts[k + 1] = starts[k] + chunk.getRowCount();
                int first = chunks.get(0).getRowCount();
                same &= k < chunks.size() - 1 ? chunk.getRowCount() == first : chunk.getRowCount() <= first;
            }
            uniform = same && !chunks.isEmpty() ? chunks.get(0).getRowCount() : 0;
            this.columns = new ArrowChunkGather.Chunks[columns];
            for (int c = 0; c < columns; c++) {
                this.columns[c] = new ArrowChunkGather.Chunks(vectors[c]);
            }
        }

        /** Rows {@code sorted[from, from + count)} as a new root the caller owns. */
        VectorSchemaRoot gather(int[] sorted, int from, int count, BufferAllocator allocator) {
            int[] chunkOf = new int[count];
            int[] rowOf = new int[count];
            for (int i = 0; i < count; i++) {
                int row = sorted[from + i];
                int chunk = uniform > 0 ? row / uniform : chunkOf(row);
                chunkOf[i] = chunk;
                rowOf[i] = row - starts[chunk];
            }
            List<FieldVector> out = new ArrayList<>(columns.length);
            try {
                for (ArrowChunkGather.Chunks column : columns) {
                    out.add(column.gather(chunkOf, rowOf, count, allocator));
                }
            } catch (RuntimeException | Error e) {
                out.forEach(FieldVector::close);
                throw e;
            }
            return new VectorSchemaRoot(chunks.get(0).getSchema().getFields(), out, count);
        }

        private int chunkOf(int row) {
            int at = java.util.Arrays.binarySearch(starts, row);
            if (at < 0) {
                return -at - 2;
            }
            while (starts[at + 1] == row) {
                at++; // skip empty chunks (none are buffered, but cheap to be sure)
            }
            return at;
        }

        /** Rows {@code sorted[0..total)} in batches of the task's batch size; closing it closes the chunks and runs {@code onClose}. */
        BatchStream stream(Schema schema, int[] sorted, int total, TaskContext context, Runnable onClose) {
            return ColChunks.batches(total, context,
                    (from, count) -> new Batch(schema, gather(sorted, from, count, context.allocator())), () -> {
                        try {
                            close();
                        } finally {
                            onClose.run();
                        }
                    });
        }

        @Override
        public void close() {
            chunks.forEach(VectorSchemaRoot::close);
        }
    }
}
