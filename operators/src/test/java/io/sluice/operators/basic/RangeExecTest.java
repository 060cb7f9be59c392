package io.sluice.operators.basic;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.operators.OperatorTestBase;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RangeExecTest extends OperatorTestBase {
    private static final Schema SCHEMA = Schema.of(new Field("id", DataType.INT64));

    @Test
    void partitionsSplitThePositionsAsSparkAcrossBatches() {
        RangeExec range = new RangeExec(5, 3, 10, 3, SCHEMA);
        List<List<Object>> p0 = support.runPartition(range, 0, 2);
        List<List<Object>> p1 = support.runPartition(range, 1, 2);
        List<List<Object>> p2 = support.runPartition(range, 2, 2);
        assertThat(p0).isEqualTo(rows(5L, 8L, 11L));
        assertThat(p1).isEqualTo(rows(14L, 17L, 20L));
        assertThat(p2).isEqualTo(rows(23L, 26L, 29L, 32L));
    }

    @Test
    void negativeStepsEmptyRangesAndValuesNearTheLongBounds() {
        assertThat(support.run(new RangeExec(10, -4, 3, 2, SCHEMA), 1024)).containsExactlyInAnyOrderElementsOf(rows(10L, 6L, 2L));
        assertThat(support.run(new RangeExec(0, 1, 0, 4, SCHEMA), 1024)).isEmpty();
        assertThat(support.run(new RangeExec(Long.MAX_VALUE - 2, 1, 3, 2, SCHEMA), 1024))
                .containsExactlyInAnyOrderElementsOf(rows(Long.MAX_VALUE - 2, Long.MAX_VALUE - 1, Long.MAX_VALUE));
        // a span past a long: the first value of the last partition is start + position * step, wrapped back
        RangeExec wide = new RangeExec(Long.MIN_VALUE, Long.MAX_VALUE, 3, 3, SCHEMA);
        assertThat(support.runPartition(wide, 2, 1024)).isEqualTo(rows(Long.MIN_VALUE + 2 * Long.MAX_VALUE));
    }

    private static List<List<Object>> rows(Long... values) {
        List<List<Object>> out = new ArrayList<>();
        for (Long v : values) {
            out.add(List.of(v));
        }
        return out;
    }
}
