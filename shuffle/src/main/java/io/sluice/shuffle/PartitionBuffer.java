package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import io.sluice.kernels.ArrowChunkGather;
import io.sluice.kernels.Batch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.TransferPair;

/**
 * Collects one output partition's rows across input batches, so a block gets record batches near
 * the task's batch size instead of one sliver per input batch (with many partitions each input
 * batch gives every partition only a few rows).
 *
 * <p>A piece is a batch kept by reference (its owner, {@link MapOutputWriter}, closes it after
 * draining), holding every column as an Arrow vector, with the indexes of its rows that belong
 * here when only some do (range and hash placement). Its rows are copied once, when drained,
 * gathered vector to vector into the batches written (string bytes copied, never decoded). A
 * piece that is exactly one whole batch is passed on with its vectors moved (the batch's rows all
 * belong to this one partition, nothing else reads them).
 */
final class PartitionBuffer {
    private final Schema schema;
    private final List<Batch> pieces = new ArrayList<>();
    /** Per piece: the row indexes array (null: its rows in order), where they start in it, and how many. */
    private final List<int[]> pieceRows = new ArrayList<>();
    private int[] pieceFrom = new int[8];
    private int[] pieceCount = new int[8];
    private int rows;

    PartitionBuffer(Schema schema) {
        this.schema = requireNonNull(schema, "schema is null");
    }

    int rows() {
        return rows;
    }

    /**
     * Rows {@code indexes[from, from + count)} of {@code batch} (with {@code indexes} null: rows
     * {@code [from, from + count)}); the batch and the index array are kept by reference and must
     * stay open and unchanged until drained. Every column must be held as an Arrow vector
     * ({@link Batch#root()} makes the missing ones).
     */
    void add(Batch batch, int[] indexes, int from, int count) {
        requireNonNull(batch, "batch is null");
        if (batch.schema().size() != schema.size()) {
            throw new IllegalArgumentException("got " + batch.schema().size() + " columns, expected " + schema.size());
        }
        for (int c = 0; c < schema.size(); c++) {
            if (batch.arrowVector(c) == null) {
                throw new IllegalArgumentException("column " + c + " ('" + schema.field(c).name()
                        + "') is not held as an Arrow vector");
            }
        }
        if (count == 0) {
            return;
        }
        int i = pieces.size();
        if (i == pieceFrom.length) {
            pieceFrom = Arrays.copyOf(pieceFrom, i * 2);
            pieceCount = Arrays.copyOf(pieceCount, i * 2);
        }
        pieces.add(batch);
        pieceRows.add(indexes);
        pieceFrom[i] = from;
        pieceCount[i] = count;
        rows += count;
    }

    /**
     * Hands the buffered rows in arrival order to {@code sink} as batches of at most {@code batchSize}
     * rows, each allocated from {@code allocator} and closed when the sink returns; the buffer is
     * empty afterwards (also when the sink throws). A batch, with what compressing it takes
     * ({@code footprint}), is kept within {@code headroom} bytes, the memory the caller reserved in
     * {@code allocator}: a batch that would take more is written with fewer rows, but never fewer
     * than {@link DrainFootprint#LEAST_BATCH_BYTES} holds (at least one), which a headroom below it
     * then allocates beyond what is reserved.
     */
    void drain(int batchSize, BufferAllocator allocator, long headroom, DrainFootprint footprint, Consumer<Batch> sink) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be positive: " + batchSize);
        }
        requireNonNull(footprint, "footprint is null");
        try {
            drainPieces(batchSize, allocator, headroom, footprint, sink);
        } finally {
            pieces.clear();
            pieceRows.clear();
            rows = 0;
        }
    }

    private void drainPieces(int batchSize, BufferAllocator allocator, long headroom, DrainFootprint footprint,
            Consumer<Batch> sink) {
        if (rows == 0) {
            return;
        }
        int columnCount = schema.size();
        int pieceTotal = pieces.size();
        // each column's chunks are read once, for every batch gathered from them
        ArrowChunkGather.Chunks[] chunks = new ArrowChunkGather.Chunks[columnCount];
        double[] rowBytes = new double[columnCount];
        for (int c = 0; c < columnCount; c++) {
            FieldVector[] vectors = new FieldVector[pieceTotal];
            for (int p = 0; p < pieceTotal; p++) {
                vectors[p] = pieces.get(p).arrowVector(c);
                rowBytes[c] = Math.max(rowBytes[c], (double) vectors[p].getBufferSize() / Math.max(1, vectors[p].getValueCount()));
            }
            chunks[c] = new ArrowChunkGather.Chunks(vectors);
        }
        Footprints fit = new Footprints(chunks, pieces.get(0), rowBytes, footprint, headroom);
        int[] chunkOf = new int[Math.min(batchSize, rows)];
        int[] rowOf = new int[chunkOf.length];
        int piece = 0;
        int offset = 0; // rows of the current piece already drained
        int remaining = rows;
        while (remaining > 0) {
            int n = Math.min(batchSize, remaining);
            Batch whole = pieces.get(piece);
            if (offset == 0 && pieceCount[piece] == n && pieceRows.get(piece) == null && pieceFrom[piece] == 0
                    && whole.rowCount() == n && fit.moves(whole)) {
                emit(moved(whole, allocator), sink);
                piece++;
                remaining -= n;
                continue;
            }
            locate(piece, offset, n, chunkOf, rowOf);
            n = fit.rows(chunkOf, rowOf, n);
            FieldVector[] vectors = new FieldVector[columnCount];
            try {
                for (int c = 0; c < columnCount; c++) {
                    vectors[c] = chunks[c].gather(chunkOf, rowOf, n, allocator);
                }
            } catch (RuntimeException | Error e) {
                closeAll(vectors);
                throw e;
            }
            emit(batch(vectors, n), sink);
            remaining -= n;
            // the cursor moves by the rows written
            for (int left = n; left > 0; ) {
                int take = Math.min(left, pieceCount[piece] - offset);
                left -= take;
                offset += take;
                if (offset == pieceCount[piece]) {
                    piece++;
                    offset = 0;
                }
            }
        }
    }

    /** The chunk and row of each of the next {@code n} rows from piece {@code piece}'s row {@code offset} on. */
    private void locate(int piece, int offset, int n, int[] chunkOf, int[] rowOf) {
        int at = 0;
        while (at < n) {
            int take = Math.min(n - at, pieceCount[piece] - offset);
            int[] indexes = pieceRows.get(piece);
            int start = pieceFrom[piece] + offset;
            for (int i = 0; i < take; i++) {
                chunkOf[at + i] = piece;
                rowOf[at + i] = indexes == null ? start + i : indexes[start + i];
            }
            at += take;
            offset += take;
            if (offset == pieceCount[piece]) {
                piece++;
                offset = 0;
            }
        }
    }

    /** Keeps each drained batch within the reserved headroom. */
    private record Footprints(ArrowChunkGather.Chunks[] chunks, Batch sample, double[] rowBytes,
            DrainFootprint footprint, long headroom) {
        boolean moves(Batch whole) {
            if (headroom == Long.MAX_VALUE) {
                return true;
            }
            long bytes = 0;
            for (int c = 0; c < chunks.length; c++) {
                bytes += footprint.moved(whole.arrowVector(c));
            }
            return bytes <= headroom;
        }

        /**
         * The most of the {@code n} located rows, halving, whose gather and compression fit the
         * headroom, or {@link DrainFootprint#LEAST_BATCH_BYTES} when the headroom is less (at least one row).
         */
        int rows(int[] chunkOf, int[] rowOf, int n) {
            if (headroom == Long.MAX_VALUE) {
                return n;
            }
            long limit = Math.max(headroom, DrainFootprint.LEAST_BATCH_BYTES);
            while (n > 1 && bytes(chunkOf, rowOf, n) > limit) {
                n /= 2;
            }
            return n;
        }

        private long bytes(int[] chunkOf, int[] rowOf, int n) {
            long bytes = 0;
            for (int c = 0; c < chunks.length; c++) {
                bytes += footprint.gathered(sample.arrowVector(c), n, chunks[c].variableBytes(chunkOf, rowOf, n),
                        (long) Math.ceil(rowBytes[c] * n));
            }
            return bytes;
        }
    }

    private static void emit(Batch batch, Consumer<Batch> sink) {
        try (batch) {
            sink.accept(batch);
        }
    }

    /** A whole piece as a batch of its own: its vectors moved out of the piece (which is not read again), no row copied. */
    private Batch moved(Batch whole, BufferAllocator allocator) {
        FieldVector[] vectors = new FieldVector[schema.size()];
        try {
            for (int c = 0; c < vectors.length; c++) {
                TransferPair transfer = whole.arrowVector(c).getTransferPair(allocator);
                transfer.transfer();
                vectors[c] = (FieldVector) transfer.getTo();
            }
        } catch (RuntimeException | Error e) {
            closeAll(vectors);
            throw e;
        }
        return batch(vectors, whole.rowCount());
    }

    private Batch batch(FieldVector[] vectors, int rowCount) {
        return new Batch(schema, new VectorSchemaRoot(schema.toArrow().getFields(), Arrays.asList(vectors), rowCount));
    }

    private static void closeAll(FieldVector[] vectors) {
        for (FieldVector v : vectors) {
            if (v != null) {
                v.close();
            }
        }
    }
}
