package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ShuffleHashPartitionerTest {
    private BufferAllocator allocator;

    @BeforeEach
    void setUp() {
        allocator = new RootAllocator(64L << 20);
    }

    @AfterEach
    void tearDown() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    private int[] partitions(Col col, int n) {
        Schema schema = Schema.of(new Field("k", col.type));
        try (Batch batch = Batch.of(schema, new Col[] {col}, col.length, allocator)) {
            return new HashPartitioner(List.of(new Column("k")), n).partitions(batch);
        }
    }

    @Test
    void floatZerosAndNaNsAreEqualKeys() {
        double otherNaN = Double.longBitsToDouble(0x7ff8000000000123L);
        int[] p = partitions(Col.ofDoubles(new double[] {0.0, -0.0, Double.NaN, otherNaN}, null), 1000);
        assertThat(p[0]).isEqualTo(p[1]);
        assertThat(p[2]).isEqualTo(p[3]);
    }

    @Test
    void longBackedTypesAgreeAndNullsGoTogether() {
        long[] values = {5, -7, 123456789L, 0};
        int[] asInt64 = partitions(Col.ofLongs(DataType.INT64, values, null), 97);
        int[] asInt32 = partitions(Col.ofLongs(DataType.INT32, values, null), 97);
        assertThat(asInt32).containsExactly(asInt64);

        boolean[] nulls = {true, false, true, true};
        int[] withNulls = partitions(Col.ofStrings(new String[] {null, "x", null, null}, nulls), 97);
        assertThat(withNulls[0]).isEqualTo(withNulls[2]).isEqualTo(withNulls[3]);
        int[] nullTyped = partitions(Col.allNull(DataType.NULL, 3), 97);
        assertThat(nullTyped[0]).isEqualTo(nullTyped[1]).isEqualTo(nullTyped[2]).isEqualTo(withNulls[0]);
    }

    /**
     * A key held as an Arrow vector (hashed in place, as a scan or a shuffle fetch hands it) goes
     * to the partition its heap column goes to: the two sides of a join may hold one key in either
     * form. Every fixed-width layout, with NULLs whose slots hold other values.
     */
    @Test
    void aKeyInPlaceGoesWhereItsHeapColumnGoes() {
        java.util.Random random = new java.util.Random(11);
        int rows = 500;
        boolean[] nulls = new boolean[rows];
        long[] longs = new long[rows];
        double[] doubles = new double[rows];
        for (int i = 0; i < rows; i++) {
            nulls[i] = random.nextInt(6) == 0;
            longs[i] = random.nextInt(100_000) - 50_000;
            doubles[i] = i % 50 == 0 ? -0.0 : random.nextInt(1000) / 8.0;
        }
        List<Col> keys = List.of(Col.ofLongs(DataType.INT32, longs, nulls), Col.ofLongs(DataType.DATE32, longs, nulls),
                Col.ofLongs(DataType.INT64, longs, nulls), Col.ofLongs(DataType.decimal(15, 2), longs, nulls),
                Col.ofDoubles(doubles, nulls));
        for (Col key : keys) {
            Schema schema = Schema.of(new Field("k", key.type));
            int[] heap = partitions(key, 61);
            org.apache.arrow.vector.FieldVector vector = key.write("k", allocator);
            long data = ((org.apache.arrow.vector.BaseFixedWidthVector) vector).getDataBuffer().memoryAddress();
            for (int i = 0; i < rows; i++) {
                if (nulls[i]) { // a value under a NULL must not count
                    org.apache.arrow.memory.util.MemoryUtil.putInt(data + (long) i * ((org.apache.arrow.vector.BaseFixedWidthVector) vector).getTypeWidth(), 77);
                }
            }
            try (Batch batch = Batch.of(schema, new Col[1], new org.apache.arrow.vector.FieldVector[] {vector}, rows, allocator)) {
                assertThat(io.sluice.kernels.InPlaceValues.of(batch.arrowVector(0), key.type)).as("read in place").isNotNull();
                int[] arrow = new HashPartitioner(List.of(new Column("k")), 61).partitions(batch);
                assertThat(batch.hasColumn(0)).as("not unpacked").isFalse();
                assertThat(arrow).as(key.type.toString()).containsExactly(heap);
            }
        }
    }

    /** A string key held as Arrow is hashed on its bytes, never decoded, to where its heap column goes (ASCII and not). */
    @Test
    void aStringKeyAsArrowGoesWhereItsHeapColumnGoesWithoutDecoding() {
        String[] values = {"MAIL", "a somewhat longer key than eight bytes", null, "", "é€ß", "TRUCK", "MAIL"};
        boolean[] nulls = {false, false, true, false, false, false, false};
        Col key = Col.ofStrings(values, nulls);
        int[] heap = partitions(key, 61);
        Schema schema = Schema.of(new Field("k", DataType.UTF8));
        try (Batch batch = Batch.of(schema, new Col[1], new org.apache.arrow.vector.FieldVector[] {key.write("k", allocator)},
                values.length, allocator)) {
            int[] arrow = new HashPartitioner(List.of(new Column("k")), 61).partitions(batch);
            assertThat(batch.hasColumn(0)).as("not decoded").isFalse();
            assertThat(arrow).containsExactly(heap);
        }
    }

    @Test
    void isDeterministicAndPinned() {
        // Pinned values: the scheme must not change silently, since map outputs written by different
        // builds or JVMs must agree on where a key lives.
        int[] longs = partitions(Col.ofLongs(DataType.INT64, new long[] {0, 1, 2, 3, 42, -1}, null), 16);
        int[] strings = partitions(Col.ofStrings(new String[] {"", "a", "b", "héllo", "key7"}, null), 16);
        int[] bools = partitions(Col.ofBools(new boolean[] {true, false}, null), 16);
        assertThat(longs).containsExactly(PINNED_LONGS);
        assertThat(strings).containsExactly(PINNED_STRINGS);
        assertThat(bools).containsExactly(PINNED_BOOLS);
    }

    private static final int[] PINNED_LONGS = {3, 8, 2, 12, 5, 2};
    private static final int[] PINNED_STRINGS = {5, 11, 10, 10, 15};
    private static final int[] PINNED_BOOLS = {8, 2};

    @Test
    void spreadsKeysEvenlyAndStaysInRange() {
        int rows = 100_000;
        int n = 10;
        long[] values = new long[rows];
        for (int i = 0; i < rows; i++) {
            values[i] = i;
        }
        int[] p = partitions(Col.ofLongs(DataType.INT64, values, null), n);
        int[] counts = new int[n];
        for (int x : p) {
            counts[x]++; // an out-of-range x fails with ArrayIndexOutOfBoundsException
        }
        for (int c : counts) {
            assertThat(c).isBetween(rows / n * 9 / 10, rows / n * 11 / 10);
        }
    }

    @Test
    void combinesSeveralKeys() {
        Schema schema = Schema.of(new Field("a", DataType.INT64), new Field("b", DataType.UTF8));
        Col a = Col.ofLongs(DataType.INT64, new long[] {1, 1, 2, 1}, null);
        Col b = Col.ofStrings(new String[] {"x", "x", "x", "y"}, null);
        List<Expr> keys = List.of(new Column("a"), new Column("b"));
        try (Batch batch = Batch.of(schema, new Col[] {a, b}, 4, allocator)) {
            int[] p = new HashPartitioner(keys, 1 << 20).partitions(batch);
            assertThat(p[0]).isEqualTo(p[1]);
            assertThat(p[0]).isNotEqualTo(p[2]);
            assertThat(p[0]).isNotEqualTo(p[3]);
        }
    }

    @Test
    void rejectsBadArguments() {
        assertThatThrownBy(() -> new HashPartitioner(List.of(), 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HashPartitioner(List.of(new Column("k")), 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * One partitioner over batches of 1,000, then 3, then 1,000 rows again: its reused arrays give
     * each batch what a new partitioner gives it, of the batch's length; a smaller batch's seeds do
     * not carry the larger one's hashes.
     */
    @Test
    void aPartitionerReusedAcrossBatchesOfOtherSizesPlacesRowsAsANewOne() {
        HashPartitioner reused = new HashPartitioner(List.of(new Column("k")), 13);
        Schema schema = Schema.of(new Field("k", DataType.INT64));
        for (int size : new int[] {1000, 3, 1000}) {
            long[] values = new long[size];
            for (int i = 0; i < size; i++) {
                values[i] = size * 31L + i * 7L;
            }
            Col col = Col.ofLongs(DataType.INT64, values, null);
            int[] expected = partitions(col, 13);
            try (Batch batch = Batch.of(schema, new Col[] {col}, size, allocator)) {
                assertThat(reused.partitions(batch)).as("batch of " + size).containsExactly(expected);
            }
        }
    }
}
