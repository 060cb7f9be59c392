package io.sluice.operators.join;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import io.sluice.kernels.ArrowChunkGather;
import io.sluice.kernels.Batch;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.util.TransferPair;

/**
 * The payload columns of a hash join's build side, kept as the Arrow vectors the build batches
 * arrived in (moved, not copied, into the build's allocator): nothing is unpacked to the heap or
 * concatenated. Build row {@code r} (the numbering of the hash table) is row {@code r -
 * start[chunk]} of batch {@code chunk}; an output batch gathers its build rows from all chunks
 * straight into new Arrow vectors ({@link ArrowChunkGather}), copying each value, string bytes
 * included, once.
 *
 * <p>Owns the vectors (and, when given one, the allocator they live in): {@link #close} frees them.
 * Read-only once {@link Appender#finish finished}, so the tasks sharing a broadcast build gather
 * from it at the same time.
 */
final class BuildColumns implements AutoCloseable {
    private final Schema schema;
    private final List<FieldVector[]> batches; // per build batch, its vectors
    private final ArrowChunkGather.Chunks[] columns; // per column, over all batches
    private final int[] chunkOfRow; // build row -> its batch
    private final int[] chunkStart; // batch -> its first build row
    private final int rows;
    private final long bytes;
    private final AutoCloseable owner; // the allocator the vectors live in, when the build made its own; else null
    private boolean closed;

    private BuildColumns(Schema schema, List<FieldVector[]> batches, int[] chunkStart, int rows, long bytes,
            AutoCloseable owner) {
        this.schema = schema;
        this.batches = batches;
        this.chunkStart = chunkStart;
        this.rows = rows;
        this.bytes = bytes;
        this.owner = owner;
        this.columns = new ArrowChunkGather.Chunks[schema.size()];
        if (!batches.isEmpty()) {
            for (int c = 0; c < columns.length; c++) {
                FieldVector[] vectors = new FieldVector[batches.size()];
                for (int b = 0; b < vectors.length; b++) {
                    vectors[b] = batches.get(b)[c];
                }
                columns[c] = new ArrowChunkGather.Chunks(vectors);
            }
        }
        this.chunkOfRow = new int[batches.size() > 1 ? rows : 0];
        for (int b = 1; b < batches.size(); b++) {
            java.util.Arrays.fill(chunkOfRow, chunkStart[b], chunkStart[b + 1], b);
        }
    }

    /** Collects build batches; the vectors move into {@code allocator}, which {@code owner} (if any) closes last. */
    static final class Appender implements AutoCloseable {
        private final Schema schema;
        private final BufferAllocator allocator;
        private final AutoCloseable owner;
        private final List<FieldVector[]> batches = new ArrayList<>();
        private final List<Integer> starts = new ArrayList<>(List.of(0));
        private int rows;
        private long bytes;
        private boolean handedOver;

        Appender(Schema schema, BufferAllocator allocator, AutoCloseable owner) {
            this.schema = requireNonNull(schema, "schema is null");
            this.allocator = requireNonNull(allocator, "allocator is null");
            this.owner = owner;
        }

        /** Takes the batch's vectors (the batch is left empty; its caller still closes it); returns their bytes. */
        long add(Batch batch) {
            List<FieldVector> from = batch.root().getFieldVectors();
            FieldVector[] moved = new FieldVector[from.size()];
            long added = 0;
            try {
                for (int c = 0; c < moved.length; c++) {
                    TransferPair transfer = from.get(c).getTransferPair(allocator);
                    transfer.transfer();
                    moved[c] = (FieldVector) transfer.getTo();
                    added += moved[c].getBufferSize();
                }
            } catch (RuntimeException | Error e) {
                for (FieldVector v : moved) { // already out of the batch: nobody else frees them
                    if (v != null) {
                        v.close();
                    }
                }
                throw e;
            }
            batches.add(moved);
            rows = Math.addExact(rows, batch.rowCount());
            starts.add(rows);
            bytes += added;
            return added;
        }

        int rows() {
            return rows;
        }

        /** The rows collected so far, each batch's vectors in order: for writing them to a spill file. */
        List<Batch> drain() {
            List<Batch> out = new ArrayList<>(batches.size());
            for (FieldVector[] vectors : batches) {
                out.add(Batch.of(schema, new io.sluice.kernels.Col[vectors.length], vectors,
                        vectors.length == 0 ? 0 : vectors[0].getValueCount(), allocator));
            }
            batches.clear();
            starts.subList(1, starts.size()).clear();
            rows = 0;
            bytes = 0;
            return out;
        }

        /** The collected rows; the columns own the vectors (and the owner) from here on. */
        BuildColumns finish() {
            int[] start = new int[starts.size()];
            for (int i = 0; i < start.length; i++) {
                start[i] = starts.get(i);
            }
            handedOver = true;
            return new BuildColumns(schema, List.copyOf(batches), start, rows, bytes, owner);
        }

        /** Frees what was not handed over. */
        @Override
        public void close() {
            if (handedOver) {
                return;
            }
            handedOver = true;
            closeAll(batches, owner);
        }
    }

    int rows() {
        return rows;
    }

    int width() {
        return columns.length;
    }

    /** Bytes of the held Arrow buffers. */
    long bytes() {
        return bytes;
    }

    Schema schema() {
        return schema;
    }

    /**
     * Column {@code c} at the build rows {@link #locate located} in {@code chunkOf} and {@code
     * rowOf}, as a new vector from {@code allocator} (the caller owns it).
     */
    FieldVector gather(int c, int[] chunkOf, int[] rowOf, int count, BufferAllocator allocator) {
        return columns[c].gather(chunkOf, rowOf, count, allocator);
    }

    /** Every column at rows {@code rows[0..count)}, as new vectors from {@code allocator} (the caller owns them). */
    FieldVector[] gatherAll(int[] rows, int count, BufferAllocator allocator) {
        if (count == 0) {
            FieldVector[] empty = new FieldVector[columns.length];
            for (int c = 0; c < empty.length; c++) {
                empty[c] = schema.field(c).toArrow().createVector(allocator);
                empty[c].setValueCount(0);
            }
            return empty;
        }
        int[] chunkOf = new int[count];
        int[] rowOf = new int[count];
        locate(rows, count, chunkOf, rowOf);
        FieldVector[] out = new FieldVector[columns.length];
        try {
            for (int c = 0; c < out.length; c++) {
                out[c] = columns[c].gather(chunkOf, rowOf, count, allocator);
            }
        } catch (RuntimeException | Error e) {
            for (FieldVector v : out) {
                if (v != null) {
                    v.close();
                }
            }
            throw e;
        }
        return out;
    }

    /** The batch and the row in it of each build row {@code rows[i]}, into {@code chunkOf[i]} and {@code rowOf[i]}. */
    void locate(int[] rows, int count, int[] chunkOf, int[] rowOf) {
        if (chunkOfRow.length == 0) {
            java.util.Arrays.fill(chunkOf, 0, count, 0);
            System.arraycopy(rows, 0, rowOf, 0, count);
            return;
        }
        for (int i = 0; i < count; i++) {
            int row = rows[i];
            int chunk = chunkOfRow[row];
            chunkOf[i] = chunk;
            rowOf[i] = row - chunkStart[chunk];
        }
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            closeAll(batches, owner);
        }
    }

    private static void closeAll(List<FieldVector[]> batches, AutoCloseable owner) {
        for (FieldVector[] vectors : batches) {
            for (ValueVector v : vectors) {
                v.close();
            }
        }
        if (owner != null) {
            try {
                owner.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing a hash join build's allocator", e);
            }
        }
    }
}
