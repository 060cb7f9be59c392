package io.sluice.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.KeyOrder;
import io.sluice.operators.Partitioning;
import io.sluice.operators.RangeBoundaries;
import io.sluice.operators.SplitPoints;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/** Range placement agrees with a brute-force count of the boundaries sorting before each row. */
class ShuffleRangePartitionerTest {
    static final Schema SCHEMA = Schema.of(new Field("k", DataType.INT32), new Field("d", DataType.FLOAT64));

    @Test
    void fastAndGenericPathsAgreeWithBruteForce() {
        Random random = new Random(5);
        int rows = 2000;
        long[] k = new long[rows];
        boolean[] kNulls = new boolean[rows];
        double[] d = new double[rows];
        boolean[] dNulls = new boolean[rows];
        for (int i = 0; i < rows; i++) {
            k[i] = random.nextInt(100) - 50;
            kNulls[i] = random.nextInt(10) == 0;
            d[i] = random.nextInt(5) == 0 ? -0.0 : random.nextInt(40) / 4.0;
            dNulls[i] = random.nextInt(10) == 0;
        }
        Col[] cols = {Col.ofLongs(DataType.INT32, k, kNulls), Col.ofDoubles(d, dNulls)};
        try (RootAllocator allocator = new RootAllocator(16L << 20);
                Batch batch = Batch.of(SCHEMA, cols, rows, allocator)) {
            for (List<SortKey> keys : List.of(
                    List.of(SortKey.asc(new Column("k"))),
                    List.of(SortKey.desc(new Column("k"))),
                    List.of(new SortKey(new Column("k"), true, true)),
                    List.of(SortKey.asc(new Column("d"))),
                    List.of(SortKey.desc(new Column("k")), SortKey.asc(new Column("d"))))) {
                Col[] keyCols = new Col[keys.size()];
                for (int i = 0; i < keyCols.length; i++) {
                    keyCols[i] = cols[((Column) keys.get(i).expr()).column().equals("k") ? 0 : 1];
                }
                for (int n : new int[] {1, 2, 5, 16}) {
                    List<List<Object>> boundaries = RangeBoundaries.compute(List.<Col[]>of(keyCols), keys, n);
                    checkAgainstBruteForce(batch, keys, keyCols, boundaries, n);
                }
                // Several boundaries sharing a first key (one of them NULL in the second): rows equal on the first key
                // are placed by the second among exactly those.
                if (keys.size() == 2) {
                    List<List<Object>> shared = List.of(Arrays.asList(-10L, 1.0), Arrays.asList(-10L, 5.0),
                            Arrays.asList(3L, 0.0), Arrays.asList(3L, 7.5), Arrays.asList(3L, null), Arrays.asList(20L, 2.0));
                    List<List<Object>> ordered = new ArrayList<>(shared);
                    KeyOrder byKeys = new KeyOrder(keys);
                    Col[] sharedCols = RangeBoundaries.toColumns(shared, new DataType[] {DataType.INT32, DataType.FLOAT64});
                    List<Integer> idx = new ArrayList<>(List.of(0, 1, 2, 3, 4, 5));
                    idx.sort((x, y) -> byKeys.compare(sharedCols, x, sharedCols, y));
                    ordered.clear();
                    idx.forEach(i -> ordered.add(shared.get(i)));
                    checkAgainstBruteForce(batch, keys, keyCols, ordered, 7);
                }
                // Boundaries holding NULL take the generic path for every key shape.
                List<List<Object>> withNull = new ArrayList<>();
                withNull.add(new ArrayList<>(Arrays.asList(new Object[keys.size()])));
                checkAgainstBruteForce(batch, keys, keyCols, withNull, 2);
            }
        }
    }

    private static void checkAgainstBruteForce(Batch batch, List<SortKey> keys, Col[] keyCols,
            List<List<Object>> boundaries, int n) {
        Partitioning.Range range = new Partitioning.Range(keys, new SplitPoints("x", boundaries), n);
        int[] placed = new RangePartitioner(range, SCHEMA).partitions(batch);
        DataType[] types = Arrays.stream(keyCols).map(c -> c.type).toArray(DataType[]::new);
        Col[] b = RangeBoundaries.toColumns(boundaries, types);
        KeyOrder order = new KeyOrder(keys);
        for (int r = 0; r < batch.rowCount(); r++) {
            int expected = 0;
            for (int i = 0; i < boundaries.size(); i++) {
                expected += order.compare(b, i, keyCols, r) < 0 ? 1 : 0;
            }
            assertThat(placed[r]).as("row %d under %s with %s", r, keys, boundaries).isEqualTo(expected);
        }
    }
}
