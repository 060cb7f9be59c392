package io.sluice.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.Test;

class ArrowRowsTest {
    private static final boolean[] NULLS = {false, true, false};

    @Test
    void decodesEveryTypeFromArrowAsHeapColumnsDo() {
        Col[] cols = {
            Col.ofBools(new boolean[] {true, false, false}, NULLS),
            Col.ofLongs(DataType.INT32, new long[] {-7, 0, Integer.MAX_VALUE}, NULLS),
            Col.ofLongs(DataType.INT64, new long[] {Long.MIN_VALUE, 0, 42}, NULLS),
            Col.ofDoubles(new double[] {-0.5, 0, Double.NaN}, NULLS),
            Col.ofLongs(DataType.decimal(15, 2), new long[] {-12345, 0, 99}, NULLS),
            Col.ofInt128(DataType.decimal(38, 4), new long[] {-1, 0, 5}, new long[] {-3, 0, 7}, NULLS),
            Col.ofStrings(new String[] {"ä€𝄞", null, ""}, NULLS),
            Col.ofLongs(DataType.DATE32, new long[] {-1, 0, 19_000}, NULLS),
            Col.ofLongs(DataType.TIMESTAMP, new long[] {-1_000_001, 0, 1_700_000_000_123_456L}, NULLS),
            Col.ofObjects(DataType.list(DataType.INT64), new Object[] {List.of(1L, 2L), null, List.of()}, NULLS),
            Col.allNull(DataType.NULL, 3),
        };
        List<Field> fields = new ArrayList<>();
        for (int c = 0; c < cols.length; c++) {
            fields.add(new Field("c" + c, cols[c].type));
        }
        Schema schema = new Schema(fields);
        List<List<Object>> expected = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            List<Object> row = new ArrayList<>();
            for (Col c : cols) {
                row.add(c.get(r));
            }
            expected.add(row);
        }
        try (BufferAllocator allocator = new RootAllocator()) {
            List<FieldVector> vectors = new ArrayList<>();
            try {
                for (int c = 0; c < cols.length; c++) {
                    vectors.add(cols[c].write("c" + c, allocator));
                }
                assertThat(ArrowRows.of(vectors, schema, 3)).isEqualTo(expected);
                assertThat(expected.get(1)).containsOnlyNulls();
            } finally {
                vectors.forEach(FieldVector::close);
            }
            try (Batch heap = Batch.of(schema, cols, 3, allocator)) {
                assertThat(ArrowRows.of(heap)).isEqualTo(expected);
            }
        }
    }
}
