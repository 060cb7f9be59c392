package io.sluice.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.Test;

class VectorReaderTest {
    @Test
    void readsAndFormatsEveryTypeFromArrowAsTheHeapColumnDoes() {
        Col[] cols = EveryTypeColumns.columns();
        try (BufferAllocator allocator = new RootAllocator(); Batch batch = Batch.of(EveryTypeColumns.schema(cols), cols, 3, allocator)) {
            batch.root(); // the Arrow form, as a batch read from a file or a shuffle holds it
            VectorReader[] readers = VectorReader.all(batch);
            for (int c = 0; c < cols.length; c++) {
                for (int r = 0; r < 3; r++) {
                    assertThat(readers[c].isNull(r)).as("c%d row %d NULL", c, r).isEqualTo(cols[c].isNull(r));
                    if (!cols[c].isNull(r)) {
                        assertThat(readers[c].format(r)).as("c%d row %d", c, r).isEqualTo(ValueFormat.format(cols[c], r));
                    }
                }
            }
            assertThat(readers[0].boolAt(0)).isTrue();
            assertThat(readers[2].longAt(0)).isEqualTo(Long.MIN_VALUE);
            assertThat(readers[3].doubleAt(0)).isEqualTo(-0.5);
            assertThat(readers[3].format(2)).isEqualTo("NaN");
            assertThat(readers[4].highAt(0)).isEqualTo(-1); // a narrow decimal's high word is its sign
            assertThat(readers[4].lowAt(0)).isEqualTo(-12345);
            assertThat(readers[5].highAt(2)).isEqualTo(5);
            assertThat(readers[5].lowAt(2)).isEqualTo(7);
            assertThat(readers[6].stringAt(0)).isEqualTo("ä€𝄞");
            assertThat(readers[9].objectAt(0)).isEqualTo(List.of(1L, 2L));
        }
    }

    @Test
    void comparesStringsByTheirBytesSoInvalidUtf8StaysDistinct() {
        Schema schema = Schema.of(new Field("s", DataType.UTF8));
        try (BufferAllocator allocator = new RootAllocator()) {
            VarCharVector v = new VarCharVector("s", allocator);
            v.allocateNew(3);
            v.set(0, new byte[] {(byte) 0xff});
            v.set(1, new byte[] {(byte) 0xfe}); // decodes to the same U+FFFD as row 0
            v.set(2, new byte[] {(byte) 0xff});
            v.setValueCount(3);
            try (Batch batch = Batch.ofVectors(schema, new org.apache.arrow.vector.FieldVector[] {v}, 3)) {
                VectorReader reader = VectorReader.of(batch, 0);
                assertThat(reader.stringAt(0)).isEqualTo(reader.stringAt(1));
                assertThat(reader.sameString(0, 1)).isFalse();
                assertThat(reader.sameString(0, 2)).isTrue();
            }
        }
    }

    @Test
    void aValueBatchRefusesAColumnOfTheWrongForm() {
        Schema schema = Schema.of(new Field("n", DataType.INT64));
        try (BufferAllocator allocator = new RootAllocator()) {
            assertThatThrownBy(() -> ValueBatch.of(schema, allocator, 1, (Object) new String[] {"x"}))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("column 'n' of type BIGINT");
            try (Batch batch = ValueBatch.of(schema, allocator, 2, new long[] {3, -4})) {
                assertThat(VectorReader.of(batch, 0).longAt(1)).isEqualTo(-4);
            }
            Schema text = Schema.of(new Field("s", DataType.UTF8));
            try (Batch batch = ValueBatch.of(text, allocator, 2, (Object) new String[] {null, "ü"})) {
                VectorReader reader = VectorReader.of(batch, 0);
                assertThat(reader.isNull(0)).isTrue();
                assertThat(reader.stringAt(1)).isEqualTo("ü");
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }
}
