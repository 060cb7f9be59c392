package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Pieces come out in arrival order, cut into batches across piece borders, whatever form each
 * piece holds its columns in (heap, Arrow, strings as Arrow next to numbers on the heap, and
 * pieces of different forms in one partition).
 */
class ShufflePartitionBufferTest {
    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void allocatorIsEmpty() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    private enum Form { HEAP, ARROW, STRINGS_AS_ARROW }

    private Batch batch(Schema schema, Form form, Col... cols) {
        int n = cols[0].length;
        if (form == Form.HEAP) {
            return Batch.of(schema, cols, n, allocator);
        }
        Col[] heap = new Col[cols.length];
        FieldVector[] vectors = new FieldVector[cols.length];
        for (int c = 0; c < cols.length; c++) {
            if (form == Form.ARROW || cols[c].type.kind() == DataType.Kind.UTF8) {
                vectors[c] = cols[c].write(schema.field(c).name(), allocator);
            } else {
                heap[c] = cols[c];
            }
        }
        return Batch.of(schema, heap, vectors, n, allocator);
    }

    /** Drains into heap copies of each batch's columns, checking every batch is full but the last. */
    private List<Col[]> drain(PartitionBuffer buffer, int batchSize) {
        List<Col[]> out = new ArrayList<>();
        buffer.drain(batchSize, allocator, b -> out.add(b.columns()));
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
        for (Form form : Form.values()) {
            PartitionBuffer buffer = new PartitionBuffer(schema);
            try (Batch first = batch(schema, form,
                    Col.ofLongs(DataType.INT64, new long[] {1, 2}, null),
                    Col.ofDoubles(new double[] {0.5, 1.5}, new boolean[] {false, true}),
                    Col.ofStrings(new String[] {"a", "b"}, null),
                    Col.ofBools(new boolean[] {true, false}, null),
                    Col.allNull(DataType.NULL, 2));
                    Batch second = batch(schema, form,
                    Col.ofLongs(DataType.INT64, new long[] {3}, new boolean[] {true}),
                    Col.ofDoubles(new double[] {2.5}, null),
                    Col.ofStrings(new String[] {null}, new boolean[] {true}),
                    Col.ofBools(new boolean[] {true}, null),
                    Col.allNull(DataType.NULL, 1))) {
                buffer.add(first, null, 0, 2);
                buffer.add(second, null, 0, 1);
                assertThat(buffer.rows()).isEqualTo(3);
                List<Col[]> batches = drain(buffer, 100);
                assertThat(batches).as(form.name()).hasSize(1);
                assertThat(values(batches, 0)).as(form.name()).containsExactly(1L, 2L, null);
                assertThat(values(batches, 1)).as(form.name()).containsExactly(0.5, null, 2.5);
                assertThat(values(batches, 2)).as(form.name()).containsExactly("a", "b", null);
                assertThat(values(batches, 3)).as(form.name()).containsExactly(true, false, true);
                assertThat(values(batches, 4)).as(form.name()).containsExactly(null, null, null);
                assertThat(Arrays.stream(batches.get(0)).mapToInt(c -> c.length)).containsOnly(3);
            }
        }
    }

    /** A whole heap piece goes on by reference; a whole Arrow piece's buffers are moved, not copied. */
    @Test
    void aWholePieceIsPassedOnWithoutACopy() {
        Schema schema = Schema.of(new Field("i", DataType.INT32), new Field("s", DataType.UTF8));
        Col ints = Col.ofLongs(DataType.INT32, new long[] {7, 8}, null);
        Col strings = Col.ofStrings(new String[] {"x", "yz"}, null);
        try (Batch piece = batch(schema, Form.STRINGS_AS_ARROW, ints, strings)) {
            long data = piece.arrowVector(1).getDataBufferAddress();
            long held = allocator.getAllocatedMemory();
            PartitionBuffer buffer = new PartitionBuffer(schema);
            buffer.add(piece, null, 0, 2);
            List<Batch> seen = new ArrayList<>();
            buffer.drain(2, allocator, b -> {
                assertThat(b.column(0)).isSameAs(ints);
                assertThat(b.arrowVector(1).getDataBufferAddress()).isEqualTo(data);
                assertThat(allocator.getAllocatedMemory()).isEqualTo(held);
                assertThat(b.column(1).get(1)).isEqualTo("yz");
                seen.add(b);
            });
            assertThat(seen).hasSize(1);
        }
    }

    /**
     * Pieces given as row indexes into shared batches (as hash and range placement hand them over)
     * and whole pieces come out in arrival order, cut into batches across piece borders, for every
     * form of the pieces and for pieces of different forms in one partition.
     */
    @Test
    void indexedPiecesAreGatheredIntoBatchesAcrossPieceBorders() {
        Schema schema = Schema.of(new Field("l", DataType.INT64), new Field("s", DataType.UTF8));
        List<Form[]> cases = new ArrayList<>();
        for (Form form : Form.values()) {
            cases.add(new Form[] {form, form});
        }
        cases.add(new Form[] {Form.ARROW, Form.HEAP});
        cases.add(new Form[] {Form.HEAP, Form.STRINGS_AS_ARROW});
        for (Form[] forms : cases) {
            PartitionBuffer buffer = new PartitionBuffer(schema);
            try (Batch shared = batch(schema, forms[0],
                    Col.ofLongs(DataType.INT64, new long[] {10, 11, 12, 13, 14}, new boolean[] {false, true, false, false, false}),
                    Col.ofStrings(new String[] {"a", "b", "c", "d", "é€"}, null));
                    Batch other = batch(schema, forms[1], Col.ofLongs(DataType.INT64, new long[] {20, 21}, null),
                    Col.ofStrings(new String[] {"x", null}, new boolean[] {false, true}))) {
                int[] order = {4, 1, 3, 0, 2};
                buffer.add(shared, order, 1, 3); // rows 1, 3, 0
                buffer.add(other, null, 0, 2);
                buffer.add(shared, null, 3, 2); // rows 3, 4
                assertThat(buffer.rows()).isEqualTo(7);
                List<Col[]> batches = drain(buffer, 3);
                String as = Arrays.toString(forms);
                assertThat(batches).as(as).hasSize(3);
                assertThat(values(batches, 0)).as(as).containsExactly(null, 13L, 10L, 20L, 21L, 13L, 14L);
                assertThat(values(batches, 1)).as(as).containsExactly("b", "d", "a", "x", null, "d", "é€");
            }
        }
    }
}
