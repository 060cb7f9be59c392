package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.plan.exec.Col;
import io.sluice.plan.types.DataType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShufflePartitionBufferTest {
    private static List<Object> values(Col col) {
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < col.length; i++) {
            out.add(col.get(i));
        }
        return out;
    }

    @Test
    void concatenatesPiecesInOrderWithMixedNullMasks() {
        PartitionBuffer buffer = new PartitionBuffer(5);
        buffer.add(new Col[] {
            Col.ofLongs(DataType.INT64, new long[] {1, 2}, null),
            Col.ofDoubles(new double[] {0.5, 1.5}, new boolean[] {false, true}),
            Col.ofStrings(new String[] {"a", "b"}, null),
            Col.ofBools(new boolean[] {true, false}, null),
            Col.allNull(DataType.NULL, 2)});
        buffer.add(new Col[] {
            Col.ofLongs(DataType.INT64, new long[] {3}, new boolean[] {true}),
            Col.ofDoubles(new double[] {2.5}, null),
            Col.ofStrings(new String[] {null}, new boolean[] {true}),
            Col.ofBools(new boolean[] {true}, null),
            Col.allNull(DataType.NULL, 1)});
        assertThat(buffer.rows()).isEqualTo(3);
        List<Col[]> batches = buffer.drain(100);
        assertThat(batches).hasSize(1);
        Col[] out = batches.get(0);
        assertThat(buffer.rows()).isZero();
        assertThat(values(out[0])).containsExactly(1L, 2L, null);
        assertThat(values(out[1])).containsExactly(0.5, null, 2.5);
        assertThat(values(out[2])).containsExactly("a", "b", null);
        assertThat(values(out[3])).containsExactly(true, false, true);
        assertThat(values(out[4])).containsExactly(null, null, null);
        assertThat(out[3].nulls).isNull();
        assertThat(Arrays.stream(out).mapToInt(c -> c.length)).containsOnly(3);
    }

    @Test
    void singlePieceIsPassedThrough() {
        PartitionBuffer buffer = new PartitionBuffer(1);
        Col col = Col.ofLongs(DataType.INT32, new long[] {7}, null);
        buffer.add(new Col[] {col});
        assertThat(buffer.drain(1).get(0)[0]).isSameAs(col);
    }

    /**
     * Pieces given as row indexes into shared columns (as range placement hands them over) and
     * whole pieces come out in arrival order, cut into batches across piece borders.
     */
    @Test
    void indexedPiecesAreGatheredIntoBatchesAcrossPieceBorders() {
        PartitionBuffer buffer = new PartitionBuffer(2);
        Col[] shared = {Col.ofLongs(DataType.INT64, new long[] {10, 11, 12, 13, 14}, new boolean[] {false, true, false, false, false}),
            Col.ofStrings(new String[] {"a", "b", "c", "d", "e"}, null)};
        int[] order = {4, 1, 3, 0, 2};
        buffer.add(shared, order, 1, 3); // rows 1, 3, 0
        buffer.add(new Col[] {Col.ofLongs(DataType.INT64, new long[] {20, 21}, null), Col.ofStrings(new String[] {"x", "y"}, null)});
        buffer.add(shared, null, 3, 2); // rows 3, 4
        assertThat(buffer.rows()).isEqualTo(7);
        List<Col[]> batches = buffer.drain(3);
        assertThat(buffer.rows()).isZero();
        assertThat(batches).hasSize(3);
        List<Object> longs = new ArrayList<>();
        List<Object> strings = new ArrayList<>();
        for (Col[] b : batches) {
            longs.addAll(values(b[0]));
            strings.addAll(values(b[1]));
        }
        assertThat(longs).containsExactly(null, 13L, 10L, 20L, 21L, 13L, 14L);
        assertThat(strings).containsExactly("b", "d", "a", "x", "y", "d", "e");
        assertThat(batches.get(2)[0].length).isEqualTo(1);
    }
}
