package io.sluice.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.Test;

class ArrowRowsTest {
    @Test
    void decodesEveryTypeFromArrowAsHeapColumnsDo() {
        Col[] cols = EveryTypeColumns.columns();
        Schema schema = EveryTypeColumns.schema(cols);
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
