package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.Lz4FrameCodec;
import io.sluice.kernels.MessageUnloader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.rounding.DefaultRoundingPolicy;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Pieces (batches held as Arrow vectors) come out in arrival order, cut into batches across piece
 * borders; a batch with a column held only on the heap is refused.
 */
class ShufflePartitionBufferTest {
    private final BufferAllocator allocator = new RootAllocator();
    private static final DrainFootprint FOOTPRINT = new DrainFootprint(ShuffleCompression.LZ4_FRAME,
            DefaultRoundingPolicy.DEFAULT_ROUNDING_POLICY);

    @AfterEach
    void allocatorIsEmpty() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    private Batch batch(Schema schema, Col... cols) {
        FieldVector[] vectors = new FieldVector[cols.length];
        for (int c = 0; c < cols.length; c++) {
            vectors[c] = cols[c].write(schema.field(c).name(), allocator);
        }
        return Batch.of(schema, new Col[cols.length], vectors, cols[0].length, allocator);
    }

    /** Drains into heap copies of each batch's columns, checking every batch is full but the last. */
    private List<Col[]> drain(PartitionBuffer buffer, int batchSize) {
        List<Col[]> out = new ArrayList<>();
        buffer.drain(batchSize, allocator, Long.MAX_VALUE, FOOTPRINT, b -> out.add(b.columns()));
        assertThat(buffer.rows()).isZero();
        for (int i = 0; i < out.size() - 1; i++) {
            assertThat(out.get(i)[0].length).isEqualTo(batchSize);
        }
        return out;
    }

    private static List<Object> values(List<Col[]> batches, int column) {
        List<Object> out = new ArrayList<>();
        for (Col[] b : batches) {
            for (int i = 0; i < b[column].length; i++) {
                out.add(b[column].get(i));
            }
        }
        return out;
    }

    @Test
    void concatenatesPiecesInOrderWithMixedNullMasks() {
        Schema schema = Schema.of(new Field("l", DataType.INT64), new Field("d", DataType.FLOAT64),
                new Field("s", DataType.UTF8), new Field("b", DataType.BOOL), new Field("n", DataType.NULL));
        PartitionBuffer buffer = new PartitionBuffer(schema);
        try (Batch first = batch(schema,
                Col.ofLongs(DataType.INT64, new long[] {1, 2}, null),
                Col.ofDoubles(new double[] {0.5, 1.5}, new boolean[] {false, true}),
                Col.ofStrings(new String[] {"a", "b"}, null),
                Col.ofBools(new boolean[] {true, false}, null),
                Col.allNull(DataType.NULL, 2));
                Batch second = batch(schema,
                Col.ofLongs(DataType.INT64, new long[] {3}, new boolean[] {true}),
                Col.ofDoubles(new double[] {2.5}, null),
                Col.ofStrings(new String[] {null}, new boolean[] {true}),
                Col.ofBools(new boolean[] {true}, null),
                Col.allNull(DataType.NULL, 1))) {
            buffer.add(first, null, 0, 2);
            buffer.add(second, null, 0, 1);
            assertThat(buffer.rows()).isEqualTo(3);
            List<Col[]> batches = drain(buffer, 100);
            assertThat(batches).hasSize(1);
            assertThat(values(batches, 0)).containsExactly(1L, 2L, null);
            assertThat(values(batches, 1)).containsExactly(0.5, null, 2.5);
            assertThat(values(batches, 2)).containsExactly("a", "b", null);
            assertThat(values(batches, 3)).containsExactly(true, false, true);
            assertThat(values(batches, 4)).containsExactly(null, null, null);
            assertThat(Arrays.stream(batches.get(0)).mapToInt(c -> c.length)).containsOnly(3);
        }
    }

    /** A whole piece's buffers are moved, not copied. */
    @Test
    void aWholePieceIsPassedOnWithoutACopy() {
        Schema schema = Schema.of(new Field("i", DataType.INT32), new Field("s", DataType.UTF8));
        try (Batch piece = batch(schema, Col.ofLongs(DataType.INT32, new long[] {7, 8}, null),
                Col.ofStrings(new String[] {"x", "yz"}, null))) {
            long ints = piece.arrowVector(0).getDataBufferAddress();
            long strings = piece.arrowVector(1).getDataBufferAddress();
            long held = allocator.getAllocatedMemory();
            PartitionBuffer buffer = new PartitionBuffer(schema);
            buffer.add(piece, null, 0, 2);
            List<Batch> seen = new ArrayList<>();
            buffer.drain(2, allocator, Long.MAX_VALUE, FOOTPRINT, b -> {
                assertThat(b.arrowVector(0).getDataBufferAddress()).isEqualTo(ints);
                assertThat(b.arrowVector(1).getDataBufferAddress()).isEqualTo(strings);
                assertThat(allocator.getAllocatedMemory()).isEqualTo(held);
                assertThat(b.column(1).get(1)).isEqualTo("yz");
                seen.add(b);
            });
            assertThat(seen).hasSize(1);
        }
    }

    @Test
    void aColumnHeldOnlyOnTheHeapIsRefused() {
        Schema schema = Schema.of(new Field("i", DataType.INT32), new Field("s", DataType.UTF8));
        try (Batch heap = Batch.of(schema, new Col[] {Col.ofLongs(DataType.INT32, new long[] {7}, null),
                Col.ofStrings(new String[] {"x"}, null)}, 1, allocator)) {
            PartitionBuffer buffer = new PartitionBuffer(schema);
            assertThatThrownBy(() -> buffer.add(heap, null, 0, 1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("column 0 ('i') is not held as an Arrow vector");
            assertThat(buffer.rows()).isZero();
        }
    }

    /**
     * Pieces given as row indexes into shared batches (as hash and range placement hand them over)
     * and whole pieces come out in arrival order, cut into batches across piece borders.
     */
    @Test
    void indexedPiecesAreGatheredIntoBatchesAcrossPieceBorders() {
        Schema schema = Schema.of(new Field("l", DataType.INT64), new Field("s", DataType.UTF8));
        PartitionBuffer buffer = new PartitionBuffer(schema);
        try (Batch shared = batch(schema,
                Col.ofLongs(DataType.INT64, new long[] {10, 11, 12, 13, 14}, new boolean[] {false, true, false, false, false}),
                Col.ofStrings(new String[] {"a", "b", "c", "d", "é€"}, null));
                Batch other = batch(schema, Col.ofLongs(DataType.INT64, new long[] {20, 21}, null),
                Col.ofStrings(new String[] {"x", null}, new boolean[] {false, true}))) {
            int[] order = {4, 1, 3, 0, 2};
            buffer.add(shared, order, 1, 3); // rows 1, 3, 0
            buffer.add(other, null, 0, 2);
            buffer.add(shared, null, 3, 2); // rows 3, 4
            assertThat(buffer.rows()).isEqualTo(7);
            List<Col[]> batches = drain(buffer, 3);
            assertThat(batches).hasSize(3);
            assertThat(values(batches, 0)).containsExactly(null, 13L, 10L, 20L, 21L, 13L, 14L);
            assertThat(values(batches, 1)).containsExactly("b", "d", "a", "x", null, "d", "é€");
        }
    }

    /**
     * Drained with less headroom than a whole batch takes, each batch (gathered and compressed, as
     * the writer does) allocates no more than the headroom: the footprint is an upper bound on
     * what Arrow really allocates, and the batches are cut smaller, rows still in order.
     */
    @Test
    void aBatchThatWouldNotFitTheHeadroomIsWrittenWithFewerRows() {
        int rows = 3000;
        long headroom = 96 << 10;
        List<Integer> sizes = drainWithHeadroom(rows, headroom, drain -> {
            assertThat(drain.getAllocatedMemory()).isLessThanOrEqualTo(headroom);
        }, drain -> assertThat(drain.getPeakMemoryAllocation()).isLessThanOrEqualTo(headroom));
        assertThat(sizes).hasSizeGreaterThan(1).allMatch(n -> n < rows);
    }

    /**
     * With no headroom at all (a writer whose drain reservation was refused) a batch is still cut
     * no smaller than {@link DrainFootprint#LEAST_BATCH_BYTES} holds, not halved down to one row:
     * a few batches, not a message per row.
     */
    @Test
    void withoutHeadroomBatchesAreNotCutBelowTheLeastBatch() {
        int rows = 3000;
        List<Integer> sizes = drainWithHeadroom(rows, 0, drain -> {
            assertThat(drain.getAllocatedMemory()).isLessThanOrEqualTo(DrainFootprint.LEAST_BATCH_BYTES);
        }, drain -> { });
        // a row here takes less than 100 bytes gathered and compressed: 64 KiB holds hundreds
        assertThat(sizes).as("rows per batch").hasSizeLessThanOrEqualTo(8);
        assertThat(sizes.subList(0, sizes.size() - 1)).allMatch(n -> n >= 256);
    }

    /**
     * Drains {@code rows} rows (a long, a string, a boolean) with {@code headroom} into an allocator
     * of its own, writing each batch as the writer does, with {@code whileWritten} checked as each
     * message is made and {@code afterwards} at the end; the rows come out in order. Returns the
     * rows of each batch.
     */
    private List<Integer> drainWithHeadroom(int rows, long headroom, java.util.function.Consumer<BufferAllocator> whileWritten,
            java.util.function.Consumer<BufferAllocator> afterwards) {
        Schema schema = Schema.of(new Field("l", DataType.INT64), new Field("s", DataType.UTF8),
                new Field("b", DataType.BOOL));
        long[] ids = new long[rows];
        String[] texts = new String[rows];
        boolean[] flags = new boolean[rows];
        for (int i = 0; i < rows; i++) {
            ids[i] = i;
            texts[i] = "value " + i + (i % 7 == 0 ? " with a longer tail to vary the widths" : "");
            flags[i] = i % 3 == 0;
        }
        PartitionBuffer buffer = new PartitionBuffer(schema);
        try (Batch batch = batch(schema, Col.ofLongs(DataType.INT64, ids, null), Col.ofStrings(texts, null),
                Col.ofBools(flags, null));
                BufferAllocator drain = allocator.newChildAllocator("drain", 0, Long.MAX_VALUE)) {
            int[] order = new int[rows];
            for (int i = 0; i < rows; i++) {
                order[i] = i;
            }
            buffer.add(batch, order, 0, rows);
            List<Integer> sizes = new ArrayList<>();
            List<Object> seen = new ArrayList<>();
            Lz4FrameCodec codec = new Lz4FrameCodec();
            buffer.drain(rows, drain, headroom, FOOTPRINT, b -> {
                try (ArrowRecordBatch message = MessageUnloader.unload(b.root(), codec)) {
                    whileWritten.accept(drain);
                }
                sizes.add(b.rowCount());
                Col l = b.column(0);
                for (int i = 0; i < b.rowCount(); i++) {
                    seen.add(l.get(i));
                }
            });
            afterwards.accept(drain);
            assertThat(seen).hasSize(rows);
            for (int i = 0; i < rows; i++) {
                assertThat(seen.get(i)).isEqualTo((long) i);
            }
            return sizes;
        }
    }
}
