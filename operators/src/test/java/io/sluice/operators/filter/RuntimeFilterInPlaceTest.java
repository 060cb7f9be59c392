package io.sluice.operators.filter;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.operators.expr.BoundExprs;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A runtime filter built from and applied to a key held as an Arrow vector (read in place, as a
 * scan hands it) is the filter and the selection its heap column gives: the same bits and range,
 * the same rows kept, NULL keys never kept whatever their slots hold.
 */
class RuntimeFilterInPlaceTest {
    private static final List<Expr> KEYS = List.of(new Column("k"));
    private final BufferAllocator allocator = new RootAllocator();
    private final Random random = new Random(5);

    @AfterEach
    void closeAllocator() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    private Col keys(DataType type, int rows, int range) {
        return keys(type, rows, range, 7);
    }

    /** Keys of which about one in {@code nullEvery} is NULL (none at 0). */
    private Col keys(DataType type, int rows, int range, int nullEvery) {
        boolean[] nulls = nullEvery == 0 ? null : new boolean[rows];
        long[] longs = new long[rows];
        double[] doubles = new double[rows];
        for (int i = 0; i < rows; i++) {
            if (nulls != null) {
                nulls[i] = random.nextInt(nullEvery) == 0;
            }
            longs[i] = random.nextInt(range) - range / 4;
            doubles[i] = longs[i] / 4.0;
        }
        return type.kind() == DataType.Kind.FLOAT64 ? Col.ofDoubles(doubles, nulls) : Col.ofLongs(type, longs, nulls);
    }

    private Batch heap(Col key) {
        return Batch.of(Schema.of(new Field("k", key.type)), new Col[] {key}, key.length, allocator);
    }

    /** The key as a vector only, its NULL slots overwritten with a value that is a build key. */
    private Batch arrow(Col key, long planted) {
        FieldVector vector = key.write("k", allocator);
        BaseFixedWidthVector fixed = (BaseFixedWidthVector) vector;
        long data = fixed.getDataBuffer().memoryAddress();
        for (int i = 0; i < key.length; i++) {
            if (key.isNull(i)) {
                if (fixed.getTypeWidth() == 4) {
                    MemoryUtil.putInt(data + 4L * i, (int) planted);
                } else {
                    MemoryUtil.putLong(data + (long) fixed.getTypeWidth() * i, planted);
                }
            }
        }
        return Batch.of(Schema.of(new Field("k", key.type)), new Col[1], new FieldVector[] {vector}, key.length, null);
    }

    private static RuntimeFilter build(Batch batch) {
        RuntimeFilter.Builder builder = new RuntimeFilter.Builder(KEYS, RuntimeFilter.bitsFor(2_000));
        builder.add(batch);
        return builder.build();
    }

    private static int[] select(RuntimeFilter filter, Batch batch) {
        int[] selected = new int[batch.rowCount()];
        int count = filter.select(new BoundExprs(KEYS, batch.schema()), batch, selected);
        return Arrays.copyOf(selected, count);
    }

    @Test
    void aKeyInPlaceBuildsAndSelectsAsItsHeapColumn() {
        for (DataType type : new DataType[] {DataType.INT32, DataType.DATE32, DataType.INT64, DataType.decimal(12, 2),
                DataType.FLOAT64}) {
            Col build = keys(type, 1000, 4000);
            Col probe = keys(type, 3000, 40_000);
            int present = 0;
            while (build.isNull(present)) {
                present++;
            }
            long planted = type.kind() == DataType.Kind.FLOAT64 ? Double.doubleToRawLongBits(build.doubles[present])
                    : build.longs[present]; // a build key: a NULL slot holding it would pass were NULLs not checked
            RuntimeFilter fromHeap;
            RuntimeFilter fromArrow;
            try (Batch h = heap(build); Batch a = arrow(build, planted)) {
                fromHeap = build(h);
                fromArrow = build(a);
                assertThat(a.hasColumn(0)).as("read in place, not unpacked").isFalse();
            }
            assertThat(fromArrow.bits()).as(type + " bits").isEqualTo(fromHeap.bits());
            assertThat(fromArrow.keys()).isEqualTo(fromHeap.keys());
            assertThat(fromArrow.ranged()).isEqualTo(type.kind() != DataType.Kind.FLOAT64).isEqualTo(fromHeap.ranged());
            assertThat(fromArrow.min()).isEqualTo(fromHeap.min());
            assertThat(fromArrow.max()).isEqualTo(fromHeap.max());
            try (Batch h = heap(probe); Batch a = arrow(probe, planted)) {
                int[] heapRows = select(fromHeap, h);
                int[] arrowRows = select(fromHeap, a);
                assertThat(arrowRows).as(type + " rows kept").containsExactly(heapRows);
                assertThat(heapRows.length).as("some kept, some dropped").isBetween(1, probe.length - 1);
                for (int r : arrowRows) {
                    assertThat(probe.isNull(r)).as("a NULL key is never kept").isFalse();
                }
                assertThat(a.hasColumn(0)).isFalse();
            }
        }
    }

    @Test
    void aKeyWithoutNullsInPlaceSelectsAsItsHeapColumn() {
        for (DataType type : new DataType[] {DataType.INT32, DataType.DATE32, DataType.INT64, DataType.FLOAT64}) {
            Col build = keys(type, 1000, 4000, 0);
            Col probe = keys(type, 3000, 40_000, 0);
            RuntimeFilter filter;
            try (Batch h = heap(build)) {
                filter = build(h);
            }
            try (Batch h = heap(probe); Batch a = arrow(probe, 0)) {
                int[] heapRows = select(filter, h);
                assertThat(select(filter, a)).as(type + " rows kept").containsExactly(heapRows);
                assertThat(heapRows.length).as("some kept, some dropped").isBetween(1, probe.length - 1);
                assertThat(a.hasColumn(0)).as("read in place, not unpacked").isFalse();
            }
        }
    }

    /**
     * Narrowing a selection (what a scan does after its cheaper tests) keeps exactly the listed rows
     * that selecting the whole batch keeps, in place and in order, for keys in place and on the heap.
     */
    @Test
    void narrowingAListOfRowsKeepsThoseTheWholeSelectionKeeps() {
        for (DataType type : new DataType[] {DataType.INT32, DataType.INT64, DataType.decimal(12, 2), DataType.FLOAT64}) {
            Col build = keys(type, 1000, 4000);
            Col probe = keys(type, 3000, 40_000);
            RuntimeFilter filter;
            try (Batch h = heap(build)) {
                filter = build(h);
            }
            int[] listed = java.util.stream.IntStream.range(0, probe.length).filter(r -> r % 3 != 1).toArray();
            try (Batch h = heap(probe); Batch a = arrow(probe, 0)) {
                for (Batch batch : new Batch[] {h, a}) {
                    int[] whole = select(filter, batch);
                    int[] expected = Arrays.stream(whole).filter(r -> r % 3 != 1).toArray();
                    int[] selected = Arrays.copyOf(listed, probe.length);
                    int kept = filter.narrow(new BoundExprs(KEYS, batch.schema()), batch, selected, listed.length);
                    assertThat(Arrays.copyOf(selected, kept)).as(type + " rows kept").containsExactly(expected);
                    assertThat(expected.length).as("some kept, some dropped").isBetween(1, listed.length - 1);
                }
            }
        }
    }
}
