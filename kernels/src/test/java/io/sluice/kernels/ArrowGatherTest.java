package io.sluice.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The gathers from held columns into Arrow vectors give the same values as gathering the heap
 * column and writing it ({@link Col#gatherOrNull} then {@link Col#write}): NULL rows, a negative
 * index as NULL, multi-byte UTF-8, empty inputs and outputs; every allocation is released.
 */
class ArrowGatherTest {
    private RootAllocator allocator;

    @BeforeEach
    void open() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void close() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    private static final String[] STRINGS = {"ascii", null, "größe", "", "日本語テキスト", "🙂 emoji", null, "z"};

    private static Col strings() {
        boolean[] nulls = new boolean[STRINGS.length];
        for (int i = 0; i < STRINGS.length; i++) {
            nulls[i] = STRINGS[i] == null;
        }
        return Col.ofStrings(STRINGS.clone(), nulls);
    }

    /** The values of a vector as Java objects (via the heap reader). */
    private static List<Object> values(FieldVector v, DataType type) {
        Col c = Col.read(v, type);
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < c.length; i++) {
            out.add(c.get(i));
        }
        return out;
    }

    private static List<Object> expected(Col col, int[] rows) {
        List<Object> out = new ArrayList<>();
        for (int r : rows) {
            out.add(r < 0 ? null : col.get(r));
        }
        return out;
    }

    @Test
    void stringBytesGatherKeepsNullsAndMultiByteUtf8() {
        Col heap = strings();
        Utf8Bytes bytes = ArrowGather.utf8(heap);
        int[] rows = {4, 1, 0, -1, 2, 2, 5, 3, 7, 6};
        try (VarCharVector v = ArrowGather.gather(bytes, rows, rows.length, new Field("s", DataType.UTF8), allocator)) {
            assertThat(v.getValueCount()).isEqualTo(rows.length);
            assertThat(values(v, DataType.UTF8)).isEqualTo(expected(heap, rows));
            assertThat(new String(v.get(0), StandardCharsets.UTF_8)).isEqualTo("日本語テキスト");
            assertThat(v.isNull(1)).isTrue();
            assertThat(v.isNull(3)).isTrue();
            assertThat(v.isNull(7)).isFalse(); // the empty string is not NULL
        }
        // the heap column gathers through the same path
        try (FieldVector v = ArrowGather.gather(heap, rows, rows.length, new Field("s", DataType.UTF8), allocator)) {
            assertThat(values(v, DataType.UTF8)).isEqualTo(expected(heap, rows));
        }
        Col decoded = ArrowGather.decode(bytes, rows, rows.length);
        assertThat(Arrays.asList(decoded.strings)).isEqualTo(expected(heap, rows));
        assertThat(decoded.isNull(3)).isTrue();
    }

    @Test
    void stringBytesReadFromAVectorConcatenateWithRebasedOffsets() {
        Col heap = strings();
        int[] firstHalf = {0, 1, 2, 3};
        int[] secondHalf = {4, 5, 6, 7};
        Utf8Bytes a;
        Utf8Bytes b;
        try (FieldVector va = heap.gather(firstHalf, 4).write("s", allocator);
                FieldVector vb = heap.gather(secondHalf, 4).write("s", allocator)) {
            a = ArrowGather.utf8(va, null);
            b = ArrowGather.utf8(vb, null);
        }
        Utf8Bytes empty = ArrowGather.utf8(Col.ofStrings(new String[0], null));
        Utf8Bytes all = ArrowGather.concat(List.of(a, empty, b));
        assertThat(all.length()).isEqualTo(STRINGS.length);
        int[] rows = {7, 6, 5, 4, 3, 2, 1, 0};
        try (VarCharVector v = ArrowGather.gather(all, rows, rows.length, new Field("s", DataType.UTF8), allocator)) {
            assertThat(values(v, DataType.UTF8)).isEqualTo(expected(heap, rows));
        }
    }

    @Test
    void emptyGathersAndEmptyStrings() {
        Utf8Bytes none = ArrowGather.utf8(Col.ofStrings(new String[0], null));
        try (VarCharVector v = ArrowGather.gather(none, new int[0], 0, new Field("s", DataType.UTF8), allocator)) {
            assertThat(v.getValueCount()).isZero();
        }
        Utf8Bytes blanks = ArrowGather.utf8(Col.ofStrings(new String[] {"", ""}, null));
        try (VarCharVector v = ArrowGather.gather(blanks, new int[] {1, 0, -1}, 3, new Field("s", DataType.UTF8),
                allocator)) {
            assertThat(values(v, DataType.UTF8)).containsExactly("", "", null);
        }
        Col ints = Col.ofLongs(DataType.INT32, new long[0], null);
        try (FieldVector v = ArrowGather.gather(ints, new int[0], 0, new Field("i", DataType.INT32), allocator)) {
            assertThat(v.getValueCount()).isZero();
        }
    }

    @Test
    void fixedWidthGathersMatchTheHeapGather() {
        boolean[] nulls = {false, true, false, false, false};
        int[] rows = {4, 1, -1, 0, 3, 3, 2};
        List<Col> columns = List.of(
                Col.ofLongs(DataType.INT32, new long[] {1, 2, -3, Integer.MAX_VALUE, Integer.MIN_VALUE}, nulls),
                Col.ofLongs(DataType.INT64, new long[] {1, 2, -3, Long.MAX_VALUE, Long.MIN_VALUE}, nulls),
                Col.ofLongs(DataType.DATE32, new long[] {0, 1, -1, 20000, 19000}, null),
                Col.ofLongs(DataType.TIMESTAMP, new long[] {0, 1, -1, 1_700_000_000_000_000L, 5}, nulls),
                Col.ofDoubles(new double[] {0.5, -1.25, Double.NaN, 1e300, -0.0}, nulls),
                Col.ofBools(new boolean[] {true, false, true, false, true}, nulls),
                Col.ofLongs(DataType.decimal(12, 2), new long[] {12345, -1, 0, 999_999_999_999L, -5}, nulls),
                Col.ofInt128(DataType.decimal(38, 4), new long[] {0, -1, 1, 0, -1}, new long[] {7, -7, 0, 5, -1}, nulls),
                Col.allNull(DataType.NULL, 5));
        for (Col c : columns) {
            try (FieldVector v = ArrowGather.gather(c, rows, rows.length, new Field("c", c.type), allocator)) {
                assertThat(v.getValueCount()).as(c.type.toString()).isEqualTo(rows.length);
                assertThat(values(v, c.type)).as(c.type.toString()).isEqualTo(expected(c, rows));
            }
        }
        Col wide = columns.get(7);
        try (FieldVector v = ArrowGather.gather(wide, new int[] {2}, 1, new Field("c", wide.type), allocator)) {
            assertThat(values(v, wide.type)).containsExactly(
                    new BigDecimal(java.math.BigInteger.ONE.shiftLeft(64), 4));
        }
    }
}
