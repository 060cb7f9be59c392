package io.sluice.plan.operators;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.exec.Batch;
import io.sluice.plan.exec.BatchStream;
import io.sluice.plan.exec.Col;
import io.sluice.plan.exec.KeyOrder;
import io.sluice.plan.expr.SortKey;
import io.sluice.plan.memory.HeapSize;
import io.sluice.plan.memory.MemoryReservation;
import io.sluice.plan.memory.SpillRun;
import io.sluice.plan.physical.TaskContext;
import io.sluice.plan.types.Schema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The buffer of a full sort, within the task's memory. Rows are buffered as heap chunks under a
 * reservation of twice their size (sorting makes a contiguous copy while the chunks still live)
 * plus what sorting them takes (the radix sort's index and scratch arrays, {@link KeyOrder#sortMemory}),
 * so that the sort of a full buffer never needs more than the buffer holds.
 * When the reservation is refused, the buffered rows are sorted and written as one run of
 * compressed Arrow IPC ({@link SpillRun}) and the memory is given back; at the end the runs and
 * the rest are merged ({@link RunMerger}). Without a spill the sort runs in memory as before.
 */
final class ExternalSorter implements AutoCloseable {
    private final Schema schema;
    private final List<SortKey> keys;
    private final KeyOrder order;
    private final TaskContext context;
    private final MemoryReservation reservation;
    private final List<Col[]> columnChunks = new ArrayList<>();
    private final List<Col[]> keyChunks = new ArrayList<>();
    private final List<Path> runs = new ArrayList<>();
    private int buffered;
    /** Estimated heap bytes of one batch read back from a run (from the rows spilled last). */
    private long runBatchBytes;
    /** Rows per batch in a run: small, so that merging many runs holds little. */
    static final int SPILL_BATCH_ROWS = 1024;

    ExternalSorter(Schema schema, List<SortKey> keys, TaskContext context, String consumer) {
        this.schema = requireNonNull(schema, "schema is null");
        this.keys = List.copyOf(keys);
        this.order = new KeyOrder(keys);
        this.context = requireNonNull(context, "context is null");
        this.reservation = context.reserve(consumer);
    }

    /** Buffers a batch's rows (its columns and evaluated sort keys), spilling first if memory is refused. */
    void add(Col[] columns, Col[] keyColumns, int rows) {
        if (rows == 0) {
            return;
        }
        long cost = 2 * (HeapSize.of(columns) + HeapSize.of(keyColumns)) + order.sortMemory(keyColumns, rows, true);
        if (!reservation.tryGrow(cost)) {
            if (buffered > 0) {
                spill();
            }
            reservation.grow(cost);
        }
        columnChunks.add(columns);
        keyChunks.add(keyColumns);
        buffered += rows;
    }

    /** Rows written to disk so far, in runs. */
    int runCount() {
        return runs.size();
    }

    /** All rows in order; the sorter must stay open until the stream is closed. */
    BatchStream finish() {
        if (runs.isEmpty()) {
            if (buffered == 0) {
                return BatchStream.empty();
            }
            Col[] all = ColChunks.concat(columnChunks);
            int[] sorted = order.sortedIndexes(ColChunks.concat(keyChunks), buffered);
            int rows = buffered;
            columnChunks.clear();
            keyChunks.clear();
            buffered = 0;
            reservation.resize(HeapSize.of(all) + HeapSize.ints(rows));
            return emit(schema, all, sorted, rows, context, this::close);
        }
        return finish(reservation.peak());
    }

    /**
     * All rows in order, merging the runs within about {@code mergeMemory} bytes: when one batch of
     * every run would not fit, groups of consecutive runs are first merged into longer runs (keeping
     * ties in arrival order), pass after pass.
     */
    BatchStream finish(long mergeMemory) {
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
            io.sluice.plan.memory.SpillFiles.delete(file);
            throw e;
        }
        reservation.recordSpill(bytes, System.nanoTime() - start);
        return file;
    }

    /** Sorts the buffered rows (their sort's memory reserved with them), writes them as one run and gives their memory back. */
    private void spill() {
        Col[] all = ColChunks.concat(columnChunks);
        Col[] keyColumns = ColChunks.concat(keyChunks);
        int rows = buffered;
        columnChunks.clear();
        keyChunks.clear();
        buffered = 0;
        long start = System.nanoTime();
        writeSorted(all, keyColumns, order.sortedIndexes(keyColumns, rows), rows, start);
        reservation.free();
    }

    /**
     * Sorts rows the caller holds (and has reserved memory for) and writes them as one run: an
     * aggregate moving its table to disk. The sort's own memory is reserved here: the radix sort's
     * if the pool gives it, else the comparison sort's, which needs little ({@link KeyOrder#sortMemory}).
     */
    void writeRun(Col[] all, Col[] keyColumns, int rows) {
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

    /** Gives the memory back and deletes runs not handed to a merger. */
    @Override
    public void close() {
        columnChunks.clear();
        keyChunks.clear();
        for (Path run : runs) {
            io.sluice.plan.memory.SpillFiles.delete(run);
        }
        runs.clear();
        reservation.close();
    }
}
