package io.sluice.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.Test;

class NestedValuesTest {
    private static final DataType POINT = DataType.struct(List.of(new Field("a", DataType.INT32),
            new Field("b", DataType.UTF8), new Field("d", DataType.decimal(25, 2))));
    private static final DataType DEEP = DataType.struct(List.of(new Field("p", POINT),
            new Field("xs", DataType.list(DataType.INT64)),
            new Field("m", DataType.map(DataType.UTF8, DataType.list(DataType.DATE32)))));

    private static Object[] deepValues() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("k1", Arrays.asList(LocalDate.of(2020, 1, 2), null));
        m.put("k2", null);
        return new Object[] {
            Map.of("p", List.of(1, "x", new BigDecimal("12345678901234567890.25")), "xs", List.of(1L, 2L), "m", m),
            null,
            Arrays.asList(null, Arrays.asList(5L, null), Map.of()),
            Map.of("p", Arrays.asList(null, null, null), "xs", List.of(), "m", Map.of("z", List.of())),
        };
    }

    @Test
    void valuesRoundTripThroughArrowVectorsAndIpc() {
        Col col = NestedValues.of(DEEP, deepValues());
        try (BufferAllocator allocator = new RootAllocator()) {
            try (FieldVector vector = col.write("c", allocator)) {
                Col back = Col.read(vector, DEEP);
                for (int i = 0; i < col.length; i++) {
                    assertThat(back.get(i)).isEqualTo(col.get(i));
                }
            }
            Schema schema = Schema.of(new Field("c", DEEP));
            byte[] ipc;
            try (Batch batch = Batch.of(schema, new Col[] {col}, col.length, allocator)) {
                ipc = ArrowIpc.encode(schema, List.of(batch), allocator);
            }
            QueryResult result = QueryResult.fromIpc(ipc);
            assertThat(result.schema()).isEqualTo(schema);
            assertThat(result.rows().get(0).get(0)).isEqualTo(col.get(0));
            assertThat(result.rows().get(1).get(0)).isNull();
            @SuppressWarnings("unchecked")
            Map<String, Object> third = (Map<String, Object>) result.rows().get(2).get(0);
            assertThat(third.get("p")).isNull();
            assertThat(third.get("xs")).isEqualTo(Arrays.asList(5L, null));
        }
    }

    @Test
    void nestedValuesPrintAsSparkShowsThem() {
        Col col = NestedValues.of(DEEP, deepValues());
        assertThat(ValueFormat.format(col, 0)).isEqualTo("{{1, x, 12345678901234567890.25}, [1, 2], {k1 -> [2020-01-02, null], k2 -> null}}");
        assertThat(ValueFormat.format(col, 2)).isEqualTo("{null, [5, null], {}}");
    }

    @Test
    void gatherSliceAndConcatCarryNestedValues() {
        Col col = NestedValues.of(DEEP, deepValues());
        Col gathered = col.gatherOrNull(new int[] {3, -1, 0}, 3);
        assertThat(gathered.get(0)).isEqualTo(col.get(3));
        assertThat(gathered.isNull(1)).isTrue();
        assertThat(Col.concat(DEEP, List.of(col.slice(2, 2), col.slice(0, 1))).get(2)).isEqualTo(col.get(0));
    }

    @Test
    void valuesOfTheWrongShapeAreRefusedNamingTheType() {
        assertThatThrownBy(() -> NestedValues.of(DataType.list(DataType.INT32), new Object[] {"no"}))
                .isInstanceOf(SluiceException.class).hasMessage("value no is not of type ARRAY<INTEGER>");
        assertThatThrownBy(() -> NestedValues.of(DataType.list(DataType.INT32), new Object[] {List.of(1L << 40)}))
                .hasMessageContaining("does not fit INTEGER");
        assertThatThrownBy(() -> NestedValues.of(DataType.map(DataType.UTF8, DataType.INT32),
                new Object[] {java.util.Collections.singletonMap(null, 1)})).hasMessageContaining("a map key is NULL");
    }
}
