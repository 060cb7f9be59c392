package io.sluice.operators.sort;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.KeyOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The sort's fast path (first key mapped to order-preserving longs, NULL rows sorted apart) must
 * give exactly the stable order of the plain key comparator, for every direction and NULL placement.
 */
class KeyOrderSortTest {
    private static final int ROWS = 3000;

    @Test
    void fastPathMatchesTheComparatorOnLongs() {
        Random random = new Random(1);
        long[] values = new long[ROWS];
        boolean[] nulls = new boolean[ROWS];
        for (int i = 0; i < ROWS; i++) {
            values[i] = random.nextInt(50) - 25 + (random.nextInt(100) == 0 ? Long.MIN_VALUE / 2 : 0);
            nulls[i] = random.nextInt(10) == 0;
        }
        checkAllOrders(Col.ofLongs(DataType.INT64, values, nulls), tieBreaker(random));
    }

    @Test
    void fastPathMatchesTheComparatorOnDoubles() {
        Random random = new Random(2);
        double[] values = new double[ROWS];
        boolean[] nulls = new boolean[ROWS];
        double[] specials = {0.0, -0.0, Double.NaN, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, -1.5, 1e300};
        for (int i = 0; i < ROWS; i++) {
            values[i] = random.nextInt(4) == 0 ? specials[random.nextInt(specials.length)] : random.nextInt(40) / 4.0 - 5;
            nulls[i] = random.nextInt(12) == 0;
        }
        checkAllOrders(Col.ofDoubles(values, nulls), tieBreaker(random));
    }

    /**
     * Radix-sorted first key with long runs of ties (merge-sorted) and short ones (insertion-sorted),
     * broken by a NULL-free numeric second key (compared as normalized longs) and then a string.
     */
    @Test
    void tiesOnTheFirstKeyAreOrderedByNormalizedLaterKeys() {
        Random random = new Random(3);
        int rows = 5000;
        long[] a = new long[rows];
        double[] b = new double[rows];
        String[] c = new String[rows];
        for (int i = 0; i < rows; i++) {
            a[i] = i < rows / 2 ? random.nextInt(8) : 1000 + random.nextInt(rows); // long runs, then short ones
            b[i] = random.nextInt(6) - 3 + (random.nextInt(9) == 0 ? -0.0 : 0.0);
            c[i] = "s" + random.nextInt(3);
        }
        Col[] cols = {Col.ofLongs(DataType.INT64, a, null), Col.ofDoubles(b, new boolean[rows]), Col.ofStrings(c, null)};
        for (boolean asc : new boolean[] {true, false}) {
            List<SortKey> keys = List.of(new SortKey(new Column("a"), asc, false), new SortKey(new Column("b"), !asc, true),
                    new SortKey(new Column("c"), asc, true));
            KeyOrder order = new KeyOrder(keys);
            List<Integer> expected = new ArrayList<>(IntStream.range(0, rows).boxed().toList());
            expected.sort(Comparator.comparing(i -> i, (x, y) -> order.compare(cols, x, cols, y)));
            assertThat(order.sortedIndexes(cols, rows)).as("asc=" + asc)
                    .containsExactly(expected.stream().mapToInt(Integer::intValue).toArray());
        }
    }

    private static Col tieBreaker(Random random) {
        String[] s = new String[ROWS];
        boolean[] nulls = new boolean[ROWS];
        for (int i = 0; i < ROWS; i++) {
            s[i] = "s" + random.nextInt(5);
            nulls[i] = random.nextInt(7) == 0;
        }
        return Col.ofStrings(s, nulls);
    }

    private static void checkAllOrders(Col first, Col second) {
        for (boolean asc : new boolean[] {true, false}) {
            for (boolean nullsFirst : new boolean[] {true, false}) {
                List<SortKey> keys = List.of(new SortKey(new Column("a"), asc, nullsFirst),
                        new SortKey(new Column("b"), !asc, !nullsFirst));
                KeyOrder order = new KeyOrder(keys);
                Col[] cols = {first, second};
                int[] fast = order.sortedIndexes(cols, ROWS);
                List<Integer> expected = new ArrayList<>(IntStream.range(0, ROWS).boxed().toList());
                expected.sort(Comparator.comparing(i -> i, (x, y) -> order.compare(cols, x, cols, y)));
                int[] want = expected.stream().mapToInt(Integer::intValue).toArray();
                assertThat(fast).as("asc=" + asc + " nullsFirst=" + nullsFirst).containsExactly(want);
                // the path a sort takes when its task cannot have the radix sort's scratch arrays
                assertThat(order.sortedIndexes(cols, ROWS, false)).as("comparison sort, asc=" + asc).containsExactly(want);
                assertThat(order.sortMemory(cols, ROWS, false)).isLessThan(order.sortMemory(cols, ROWS, true));
            }
        }
    }
}
