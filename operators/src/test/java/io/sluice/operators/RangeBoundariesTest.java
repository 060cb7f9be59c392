package io.sluice.operators;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.SortKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RangeBoundariesTest {
    static final List<SortKey> ASC = List.of(SortKey.asc(new Column("k")));

    static Col longs(Long... values) {
        long[] v = new long[values.length];
        boolean[] nulls = new boolean[values.length];
        for (int i = 0; i < values.length; i++) {
            nulls[i] = values[i] == null;
            v[i] = values[i] == null ? 0 : values[i];
        }
        return Col.ofLongs(DataType.INT64, v, nulls);
    }

    static Long[] range(long from, long to) {
        Long[] out = new Long[(int) (to - from)];
        for (int i = 0; i < out.length; i++) {
            out[i] = from + i;
        }
        return out;
    }

    static Long[] concat(Long[]... parts) {
        List<Long> all = new ArrayList<>();
        for (Long[] p : parts) {
            all.addAll(Arrays.asList(p));
        }
        return all.toArray(new Long[0]);
    }

    static List<List<Object>> rows(Object... values) {
        List<List<Object>> out = new ArrayList<>();
        for (Object v : values) {
            out.add(Arrays.asList(v));
        }
        return out;
    }

    static List<List<Object>> compute(Long[] values, List<SortKey> keys, int n) {
        // Shuffled and split in pieces: the result depends on the values only.
        List<Long> shuffled = new ArrayList<>(Arrays.asList(values));
        java.util.Collections.shuffle(shuffled, new Random(7));
        int half = shuffled.size() / 2;
        List<Col[]> pieces = List.of(
                new Col[] {longs(shuffled.subList(0, half).toArray(new Long[0]))},
                new Col[] {longs()},
                new Col[] {longs(shuffled.subList(half, shuffled.size()).toArray(new Long[0]))});
        return RangeBoundaries.compute(pieces, keys, n);
    }

    @Test
    void uniformKeysGiveEvenQuantiles() {
        assertThat(compute(range(0, 100), ASC, 4)).isEqualTo(rows(24L, 49L, 74L));
        assertThat(compute(range(0, 100), List.of(SortKey.desc(new Column("k"))), 4)).isEqualTo(rows(75L, 50L, 25L));
        assertThat(compute(range(0, 100), ASC, 1)).isEmpty();
        assertThat(compute(new Long[0], ASC, 4)).isEmpty();
    }

    @Test
    void aHeavyKeyGetsItsOwnPartitionAndTheRestStayBalanced() {
        Long[] heavy = new Long[60];
        Arrays.fill(heavy, 20L);
        assertThat(compute(concat(range(0, 20), heavy, range(21, 41)), ASC, 4)).isEqualTo(rows(19L, 20L, 30L));
        // Fewer distinct keys than partitions: fewer boundaries, never two equal ones.
        assertThat(compute(new Long[] {1L, 1L, 1L, 2L, 2L, 2L}, ASC, 4)).isEqualTo(rows(1L));
        Long[] same = new Long[50];
        Arrays.fill(same, 5L);
        assertThat(compute(same, ASC, 8)).isEmpty();
    }

    @Test
    void nullsSortLastOrFirstAsTheKeySays() {
        Long[] values = concat(range(1, 10), new Long[] {null, null, null});
        assertThat(compute(values, ASC, 4)).isEqualTo(rows(3L, 6L, 9L));
        Long[] mostlyNull = concat(new Long[] {1L, 2L}, new Long[10]);
        assertThat(compute(mostlyNull, ASC, 3)).isEqualTo(rows(2L));
        List<SortKey> nullsFirst = List.of(new SortKey(new Column("k"), true, true));
        assertThat(compute(mostlyNull, nullsFirst, 3)).isEqualTo(rows(null, 1L));
    }

    @Test
    void multiColumnKeysAndTypedValues() {
        Col a = Col.ofStrings(new String[] {"x", "x", "y", "y", "z", "z"}, null);
        Col b = Col.ofDoubles(new double[] {2.5, 1.0, 0.0, -0.0, 9.0, 3.0}, null);
        List<SortKey> keys = List.of(SortKey.asc(new Column("a")), SortKey.desc(new Column("b")));
        List<List<Object>> boundaries = RangeBoundaries.compute(List.<Col[]>of(new Col[] {a, b}), keys, 3);
        // Sorted: (x,2.5) (x,1.0) (y,0.0) (y,-0.0) (z,9.0) (z,3.0); -0.0 equals 0.0, so (y, ±0) is one key.
        assertThat(boundaries).containsExactly(List.of("x", 1.0), List.of("y", 0.0));

        Col[] columns = RangeBoundaries.toColumns(boundaries, new DataType[] {DataType.UTF8, DataType.FLOAT64});
        assertThat(columns[0].strings).containsExactly("x", "y");
        assertThat(RangeBoundaries.row(columns, 1)).containsExactly("y", 0.0);
        assertThatThrownBy(() -> RangeBoundaries.toColumns(boundaries, new DataType[] {DataType.UTF8, DataType.INT64}))
                .hasMessageContaining("is not held as int64");
    }

    @Test
    void randomSkewedDataKeepsEqualKeysTogetherAndBalances() {
        Random random = new Random(3);
        Long[] values = new Long[20000];
        for (int i = 0; i < values.length; i++) {
            values[i] = random.nextInt(10) < 3 ? 777L : (long) random.nextInt(5000); // 30% one key
        }
        int n = 8;
        List<List<Object>> boundaries = compute(values, ASC, n);
        assertThat(boundaries).hasSizeLessThanOrEqualTo(n - 1);
        Col[] b = RangeBoundaries.toColumns(boundaries, new DataType[] {DataType.INT64});
        KeyOrder order = new KeyOrder(ASC);
        for (int i = 1; i < boundaries.size(); i++) {
            assertThat(order.compare(b, i - 1, b, i)).isNegative();
        }
        int[] sizes = new int[n];
        Col all = longs(values);
        for (int r = 0; r < values.length; r++) {
            int p = 0;
            while (p < boundaries.size() && order.compare(b, p, new Col[] {all}, r) < 0) {
                p++;
            }
            sizes[p]++;
        }
        long heavy = Arrays.stream(values).filter(v -> v == 777L).count();
        int fair = values.length / n;
        int largest = Arrays.stream(sizes).max().getAsInt();
        // The heavy key's partition holds it and little else; every other is near a fair share.
        assertThat(largest).isBetween((int) heavy, (int) heavy + fair / 2);
        assertThat(Arrays.stream(sizes).filter(s -> s != largest).max().getAsInt()).isLessThan(fair * 3 / 2);
        assertThat(Arrays.stream(sizes).filter(s -> s > 0).count()).isGreaterThanOrEqualTo(n - 1);
    }

    /**
     * Samples of the same decimal key at scales 2 and 4 (unscaled 150 is 1.50, unscaled 15000 is
     * 1.5000) compare by value, boundaries carry their scale, and bind exactly at either scale.
     */
    @Test
    void decimalSamplesOfDifferentScalesCompareByValue() {
        DataType d2 = DataType.decimal(10, 2);
        DataType d4 = DataType.decimal(14, 4);
        long[] twoPlaces = new long[100];
        long[] fourPlaces = new long[100];
        for (int i = 0; i < 100; i++) {
            twoPlaces[i] = i * 100L;          // 0.00 .. 99.00
            fourPlaces[i] = (100 + i) * 10_000L; // 100.0000 .. 199.0000
        }
        List<Col[]> pieces = List.of(new Col[] {Col.ofLongs(d2, twoPlaces, null)}, new Col[] {Col.ofLongs(d4, fourPlaces, null)});
        List<List<Object>> boundaries = RangeBoundaries.compute(pieces, ASC, 2);
        // by value the median is 99.00 / 100.0000; positionally (unscaled longs) it would be 9900 at scale 4
        assertThat(boundaries).isEqualTo(rows(new java.math.BigDecimal("99.0000")));
        assertThat(RangeBoundaries.toColumns(boundaries, new DataType[] {d2})[0].longs).containsExactly(9900L);
        assertThat(RangeBoundaries.toColumns(boundaries, new DataType[] {d4})[0].longs).containsExactly(990_000L);
        assertThatThrownBy(() -> RangeBoundaries.toColumns(rows(new java.math.BigDecimal("1.2345")), new DataType[] {d2}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1.2345 of key 0 is not exactly representable as decimal(10,2)");
    }
}
