package io.sluice.operators.hash;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The direct array (a dense single integer key) and the hash table index build rows alike: the
 * same groups, rows and NULL handling, and probes far outside the key range (overflowing the
 * offset from the minimum) find nothing.
 */
class JoinHashTableTest {
    private static final long[] PROBES = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, 2, 5, 6, 7, 99, 1000, 1003,
        Long.MAX_VALUE, Long.MAX_VALUE - 1};

    /** Build row indexes matching each probe key, one string per probe. */
    private static String matches(JoinHashTable table, Col probe) {
        int[] groups = table.probe(new Col[] {probe}, probe.length);
        StringBuilder out = new StringBuilder();
        for (int r = 0; r < probe.length; r++) {
            int g = groups[r];
            int[] rows = g < 0 ? new int[0] : Arrays.copyOfRange(table.rows(), table.groupStart(g), table.groupEnd(g));
            Arrays.sort(rows);
            out.append(probe.isNull(r) ? "NULL" : probe.longs[r]).append("->").append(Arrays.toString(rows)).append(' ');
        }
        return out.toString();
    }

    @Test
    void denseKeysUseTheDirectArrayAndMatchAsTheHashTableDoes() {
        long[] dense = {5, 6, 7, 5, 1000 - 1000 + 2, 6, 0, 7, 3};
        boolean[] nulls = {false, false, false, false, false, true, false, false, false};
        Col build = Col.ofLongs(DataType.INT64, dense, nulls);
        boolean[] probeNulls = new boolean[PROBES.length];
        probeNulls[3] = true; // a NULL probe key (its value 0 is in the build) matches nothing
        Col probe = Col.ofLongs(DataType.INT64, PROBES, probeNulls);
        JoinHashTable direct = JoinHashTable.build(new Col[] {build}, new DataType[] {DataType.INT64}, dense.length);
        // the same keys spread past the direct array's reach go to the hash table
        long[] sparse = dense.clone();
        sparse[8] = 1_000_000_000_000L;
        JoinHashTable hashed = JoinHashTable.build(new Col[] {Col.ofLongs(DataType.INT64, sparse, nulls)},
                new DataType[] {DataType.INT64}, sparse.length);
        assertThat(direct.heapBytes()).isLessThan(hashed.heapBytes());
        String expected = "-9223372036854775808->[] -9223372036854775807->[] -1->[] NULL->[] 1->[] 2->[4] 5->[0, 3] "
                + "6->[1] 7->[2, 7] 99->[] 1000->[] 1003->[] 9223372036854775807->[] 9223372036854775806->[] ";
        assertThat(matches(direct, probe)).isEqualTo(expected);
        assertThat(matches(hashed, probe)).isEqualTo(expected);
        assertThat(direct.nullStart()).isEqualTo(8);
        assertThat(direct.rows()[8]).isEqualTo(5); // the NULL-key row comes last
        assertThat(direct.rowPerGroup()).isFalse();
    }

    @Test
    void extremeKeysAndUniqueRows() {
        long[] keys = {Long.MAX_VALUE - 2, Long.MAX_VALUE, Long.MAX_VALUE - 1};
        JoinHashTable table = JoinHashTable.build(new Col[] {Col.ofLongs(DataType.INT64, keys, null)},
                new DataType[] {DataType.INT64}, keys.length);
        assertThat(table.rowPerGroup()).isTrue();
        assertThat(matches(table, Col.ofLongs(DataType.INT64, PROBES, null))).isEqualTo(
                "-9223372036854775808->[] -9223372036854775807->[] -1->[] 0->[] 1->[] 2->[] 5->[] 6->[] 7->[] 99->[] "
                        + "1000->[] 1003->[] 9223372036854775807->[1] 9223372036854775806->[2] ");
        long[] wide = {Long.MIN_VALUE, Long.MAX_VALUE}; // the span overflows a long: hash table
        JoinHashTable spread = JoinHashTable.build(new Col[] {Col.ofLongs(DataType.INT64, wide, null)},
                new DataType[] {DataType.INT64}, wide.length);
        assertThat(matches(spread, Col.ofLongs(DataType.INT64, new long[] {Long.MAX_VALUE, 0, Long.MIN_VALUE}, null)))
                .isEqualTo("9223372036854775807->[1] 0->[] -9223372036854775808->[0] ");
    }

    @Test
    void aHashPartitionsShareOfADenseKeyUsesTheDirectArray() {
        // every 8th value of a dense range: one of 8 hash partitions of a surrogate key
        int rows = 100_000;
        long[] everyEighth = new long[rows];
        long[] everySixteenth = new long[rows];
        for (int i = 0; i < rows; i++) {
            everyEighth[i] = 8L * i + 3;
            everySixteenth[i] = 16L * i + 3;
        }
        DataType[] types = {DataType.INT64};
        JoinHashTable direct = JoinHashTable.build(new Col[] {Col.ofLongs(DataType.INT64, everyEighth, null)}, types, rows);
        // twice as sparse, a direct array would take more than the hash table: hashed
        JoinHashTable hashed = JoinHashTable.build(new Col[] {Col.ofLongs(DataType.INT64, everySixteenth, null)}, types,
                rows);
        assertThat(direct.heapBytes()).as("a direct array, smaller than the hash table").isLessThan(hashed.heapBytes());
        assertThat(direct.rowPerGroup()).isTrue();
        int probes = 8 * rows + 16;
        long[] probe = new long[probes];
        for (int i = 0; i < probes; i++) {
            probe[i] = i - 8;
        }
        int[] groups = direct.probe(new Col[] {Col.ofLongs(DataType.INT64, probe, null)}, probes);
        for (int i = 0; i < probes; i++) {
            long v = probe[i];
            int expected = v >= 3 && (v - 3) % 8 == 0 && v < 8L * rows ? (int) ((v - 3) / 8) : -1;
            if (groups[i] != expected) {
                assertThat(groups[i]).as("key %d", v).isEqualTo(expected);
            }
        }
    }
}
