package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.kernels.ArrowChunkGather;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.util.TransferPair;

/**
 * Collects one output partition's rows across input batches, so a block gets record batches near
 * the task's batch size instead of one sliver per input batch (with many partitions each input
 * batch gives every partition only a few rows).
 *
 * <p>A piece is a batch kept by reference (its owner, {@link MapOutputWriter}, closes it after
 * draining), with the indexes of its rows that belong here when only some do (range and hash
 * placement). Its rows are copied once, when drained, straight into the batches written, each
 * column in the form the pieces hold it: a column every piece holds as an Arrow vector (strings
 * from a Parquet scan, everything after a shuffle fetch) is gathered vector to vector with its
 * bytes copied, never decoded; other columns are copied between heap columns. A piece that is
 * exactly one whole batch is passed on as it is: its heap columns by reference, its vectors moved
 * (the batch's rows all belong to this one partition, nothing else reads them).
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
     * stay open and unchanged until drained.
     */
    void add(Batch batch, int[] indexes, int from, int count) {
        requireNonNull(batch, "batch is null");
        if (batch.schema().size() != schema.size()) {
            throw new IllegalArgumentException("got " + batch.schema().size() + " columns, expected " + schema.size());
        }
        if (count == 0) {
            return;
        }
        int i = pieces.size();
        if (i == pieceFrom.length) {
            pieceFrom = java.util.Arrays.copyOf(pieceFrom, i * 2);
            pieceCount = java.util.Arrays.copyOf(pieceCount, i * 2);
        }
        pieces.add(batch);
        pieceRows.add(indexes);
        pieceFrom[i] = from;
        pieceCount[i] = count;
        rows += count;
    }

    /**
     * Hands the buffered rows in arrival order to {@code sink} as batches of {@code batchSize} rows
     * (the last one fewer), each allocated from {@code allocator} and closed when the sink returns;
     * the buffer is empty afterwards (also when the sink throws).
     */
    void drain(int batchSize, BufferAllocator allocator, Consumer<Batch> sink) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be positive: " + batchSize);
        }
        try {
            drainPieces(batchSize, allocator, sink);
        } finally {
            pieces.clear();
            pieceRows.clear();
            rows = 0;
        }
    }

    private void drainPieces(int batchSize, BufferAllocator allocator, Consumer<Batch> sink) {
        int columnCount = schema.size();
        int pieceTotal = pieces.size();
        // A column is gathered as Arrow when every piece holds it so; then its chunks are read once.
        ArrowChunkGather.Chunks[] chunks = new ArrowChunkGather.Chunks[columnCount];
        boolean[] anyNulls = new boolean[columnCount];
        boolean[] anyWide = new boolean[columnCount];
        for (int c = 0; c < columnCount; c++) {
            FieldVector[] vectors = new FieldVector[pieceTotal];
            for (int p = 0; p < pieceTotal && vectors != null; p++) {
                vectors[p] = pieces.get(p).arrowVector(c);
                if (vectors[p] == null) {
                    vectors = null;
                }
            }
            if (vectors != null) {
                chunks[c] = new ArrowChunkGather.Chunks(vectors);
                continue;
            }
            for (Batch piece : pieces) {
                Col col = piece.column(c);
                anyNulls[c] |= col.nulls != null;
                anyWide[c] |= col.isWide();
            }
        }
        int piece = 0;
        int offset = 0; // rows of the current piece already drained
        int remaining = rows;
        while (remaining > 0) {
            int n = Math.min(batchSize, remaining);
            Batch whole = pieces.get(piece);
            if (offset == 0 && pieceCount[piece] == n && pieceRows.get(piece) == null && pieceFrom[piece] == 0
                    && whole.rowCount() == n) {
                emit(moved(whole, chunks, allocator), sink);
                piece++;
                remaining -= n;
                continue;
            }
            Col[] heap = new Col[columnCount];
            for (int c = 0; c < columnCount; c++) {
                if (chunks[c] == null) {
                    DataType type = schema.field(c).type();
                    heap[c] = anyWide[c] ? Col.allocateWide(type, n, anyNulls[c]) : Col.allocate(type, n, anyNulls[c]);
                }
            }
            int[] chunkOf = new int[n];
            int[] rowOf = new int[n];
            int at = 0;
            while (at < n) {
                int take = Math.min(n - at, pieceCount[piece] - offset);
                int[] indexes = pieceRows.get(piece);
                int start = pieceFrom[piece] + offset;
                for (int i = 0; i < take; i++) {
                    chunkOf[at + i] = piece;
                    rowOf[at + i] = indexes == null ? start + i : indexes[start + i];
                }
                for (int c = 0; c < columnCount; c++) {
                    if (heap[c] != null) {
                        copy(pieces.get(piece).column(c), indexes, start, take, heap[c], at);
                    }
                }
                at += take;
                offset += take;
                if (offset == pieceCount[piece]) {
                    piece++;
                    offset = 0;
                }
            }
            FieldVector[] vectors = new FieldVector[columnCount];
            try {
                for (int c = 0; c < columnCount; c++) {
                    if (chunks[c] != null) {
                        vectors[c] = chunks[c].gather(chunkOf, rowOf, n, allocator);
                    } else {
                        heap[c] = heap[c].compacted();
                    }
                }
            } catch (RuntimeException | Error e) {
                for (FieldVector v : vectors) {
                    if (v != null) {
                        v.close();
                    }
                }
                throw e;
            }
            emit(Batch.of(schema, heap, vectors, n, allocator), sink);
            remaining -= n;
        }
    }

    private static void emit(Batch batch, Consumer<Batch> sink) {
        try (batch) {
            sink.accept(batch);
        }
    }

    /**
     * A whole piece as a batch of its own: heap columns by reference, the vectors of columns
     * gathered as Arrow moved out of the piece (which is not read again), so no row is copied.
     */
    private Batch moved(Batch whole, ArrowChunkGather.Chunks[] chunks, BufferAllocator allocator) {
        int columnCount = schema.size();
        Col[] heap = new Col[columnCount];
        FieldVector[] vectors = new FieldVector[columnCount];
        try {
            for (int c = 0; c < columnCount; c++) {
                if (chunks[c] != null) {
                    TransferPair transfer = whole.arrowVector(c).getTransferPair(allocator);
                    transfer.transfer();
                    vectors[c] = (FieldVector) transfer.getTo();
                } else {
                    heap[c] = whole.column(c);
                }
            }
        } catch (RuntimeException | Error e) {
            for (FieldVector v : vectors) {
                if (v != null) {
                    v.close();
                }
            }
            throw e;
        }
        return Batch.of(schema, heap, vectors, whole.rowCount(), allocator);
    }

    /** Copies {@code count} rows of {@code src} (by {@code indexes} from {@code start}, or from row {@code start}) into {@code dst} at {@code at}. */
    private static void copy(Col src, int[] indexes, int start, int count, Col dst, int at) {
        if (dst.isWide()) {
            for (int i = 0; i < count; i++) {
                int row = indexes == null ? start + i : indexes[start + i];
                dst.highs[at + i] = src.high(row);
                dst.lows[at + i] = src.low(row);
                if (dst.nulls != null) {
                    dst.nulls[at + i] = src.isNull(row);
                }
            }
            return;
        }
        if (indexes == null) {
            switch (src.type.kind()) {
                case FLOAT64 -> System.arraycopy(src.doubles, start, dst.doubles, at, count);
                case BOOL, NULL -> System.arraycopy(src.bools, start, dst.bools, at, count);
                case UTF8 -> System.arraycopy(src.strings, start, dst.strings, at, count);
                case STRUCT, LIST, MAP -> System.arraycopy(src.objects, start, dst.objects, at, count);
                default -> System.arraycopy(src.longs, start, dst.longs, at, count);
            }
            if (src.nulls != null) {
                System.arraycopy(src.nulls, start, dst.nulls, at, count);
            }
            return;
        }
        switch (src.type.kind()) {
            case FLOAT64 -> {
                double[] s = src.doubles;
                double[] d = dst.doubles;
                for (int i = 0; i < count; i++) {
                    d[at + i] = s[indexes[start + i]];
                }
            }
            case BOOL, NULL -> {
                boolean[] s = src.bools;
                boolean[] d = dst.bools;
                for (int i = 0; i < count; i++) {
                    d[at + i] = s[indexes[start + i]];
                }
            }
            case UTF8 -> {
                String[] s = src.strings;
                String[] d = dst.strings;
                for (int i = 0; i < count; i++) {
                    d[at + i] = s[indexes[start + i]];
                }
            }
            case STRUCT, LIST, MAP -> {
                Object[] s = src.objects;
                Object[] d = dst.objects;
                for (int i = 0; i < count; i++) {
                    d[at + i] = s[indexes[start + i]];
                }
            }
            default -> {
                long[] s = src.longs;
                long[] d = dst.longs;
                for (int i = 0; i < count; i++) {
                    d[at + i] = s[indexes[start + i]];
                }
            }
        }
        if (src.nulls != null) {
            boolean[] s = src.nulls;
            boolean[] d = dst.nulls;
            for (int i = 0; i < count; i++) {
                d[at + i] = s[indexes[start + i]];
            }
        }
    }
}
