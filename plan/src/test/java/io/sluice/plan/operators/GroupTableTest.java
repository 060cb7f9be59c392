package io.sluice.plan.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.plan.exec.Col;
import io.sluice.plan.types.DataType;
import org.junit.jupiter.api.Test;

/** All NULLs of a key column form one group, whatever value lies under their slots. */
class GroupTableTest {
    @Test
    void nullKeysWithDifferentValuesUnderTheSlotFormOneGroup() {
        boolean[] nulls = {true, false, true, true, false};
        Col ints = Col.ofLongs(DataType.INT64, new long[] {7, 1, 8, 9, 1}, nulls);
        Col doubles = Col.ofDoubles(new double[] {0.5, 2.0, -3.0, 1e9, 2.0}, nulls);
        Col decimals = Col.ofLongs(DataType.decimal(10, 2), new long[] {123, 5, -4, 0, 5}, nulls);
        for (Col key : new Col[] {ints, doubles, decimals}) {
            GroupTable table = new GroupTable(new DataType[] {key.type});
            int[] ids = table.groupIds(new Col[] {key}, 5);
            assertThat(ids).as(key.type.toString()).containsExactly(0, 1, 0, 0, 1);
            assertThat(table.groupCount()).isEqualTo(2);
        }
    }

    @Test
    void multiColumnKeysGroupNullsPerColumn() {
        Col a = Col.ofLongs(DataType.INT64, new long[] {3, 4, 5, 1, 1}, new boolean[] {true, true, true, false, false});
        Col b = Col.ofStrings(new String[] {"x", null, "x", null, "y"}, new boolean[] {false, true, false, true, false});
        GroupTable table = new GroupTable(new DataType[] {a.type, b.type});
        int[] ids = table.groupIds(new Col[] {a, b}, 5);
        // (NULL, x), (NULL, NULL), (NULL, x), (1, NULL), (1, y)
        assertThat(ids).containsExactly(0, 1, 0, 2, 3);
    }
}
