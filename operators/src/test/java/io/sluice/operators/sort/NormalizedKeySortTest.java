package io.sluice.operators.sort;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.kernels.Utf8Bytes;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.KeyOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.Test;

/**
 * The normalized-key sort must give exactly the stable order of the plain key comparator
 * ({@link KeyOrder#compare}, strings by {@link String#compareTo}) for every direction and NULL
 * placement: strings with multi-byte UTF-8 (including the characters where UTF-8 byte order and
 * UTF-16 order differ), empty strings, equal prefixes longer than the prefix, numbers of every
 * width, and keys past the prefix.
 */
class NormalizedKeySortTest {
    /** Above the radix threshold, so that both the radix and the merge paths run. */
    private static final int ROWS = 4000;
    private static final String LONG = "a-shared-prefix-longer-than-the-thirty-two-byte-prefix-";
    private static final String[] PIECES = {"", "a", "b", "é", "€", "\uE000", "\uFFFD", "\uD83D\uDE00", "\uD800\uDC00",
        "z", "\u0000", "ab", LONG, LONG + "x", LONG + "é", LONG + "\uD83D\uDE00"};

    @Test
    void stringsAloneInEveryOrder() {
        Random random = new Random(11);
        Col s = strings(random, ROWS, 8);
        checkAllOrders(new Col[] {s});
    }

    @Test
    void intThenStringThenDouble() {
        Random random = new Random(12);
        Col k = ints(random, ROWS, 30, 10);
        Col s = strings(random, ROWS, 10);
        Col x = doubles(random, ROWS);
        checkAllOrders(new Col[] {k, s, x});
    }

    @Test
    void stringThenInt() {
        Random random = new Random(13);
        checkAllOrders(new Col[] {strings(random, ROWS, 0), ints(random, ROWS, 5, 6)});
    }

    @Test
    void numbersOfEveryWidthThenString() {
        Random random = new Random(14);
        long[] wide = new long[ROWS];
        long[] extremes = {Long.MIN_VALUE, Long.MAX_VALUE, -1, 0, 1, Long.MIN_VALUE + 1};
        for (int i = 0; i < ROWS; i++) {
            wide[i] = extremes[random.nextInt(extremes.length)];
        }
        boolean[] bools = new boolean[ROWS];
        boolean[] boolNulls = new boolean[ROWS];
        for (int i = 0; i < ROWS; i++) {
            bools[i] = random.nextBoolean();
            boolNulls[i] = random.nextInt(7) == 0;
        }
        Col allNull = Col.allNull(DataType.INT32, ROWS);
        checkAllOrders(new Col[] {Col.ofBools(bools, boolNulls), allNull, Col.ofLongs(DataType.INT64, wide, null),
            ints(random, ROWS, 3, 0), strings(random, ROWS, 5)});
    }

    @Test
    void keysPastThePrefixWidthAreCompared() {
        Random random = new Random(15);
        Col[] keys = new Col[6];
        for (int k = 0; k < keys.length; k++) {
            long[] v = new long[ROWS];
            for (int i = 0; i < ROWS; i++) {
                v[i] = random.nextInt(3) == 0 ? random.nextLong() : random.nextInt(2);
            }
            keys[k] = Col.ofLongs(DataType.INT64, v, null);
        }
        checkAllOrders(keys);
    }

    @Test
    void wideDecimalKeyEndsThePrefix() {
        Random random = new Random(16);
        long[] highs = new long[ROWS];
        long[] lows = new long[ROWS];
        for (int i = 0; i < ROWS; i++) {
            highs[i] = random.nextInt(3) - 1;
            lows[i] = random.nextLong();
        }
        Col dec = Col.ofInt128(DataType.decimal(38, 2), highs, lows, null);
        assertThat(dec.isWide()).isTrue();
        checkAllOrders(new Col[] {ints(random, ROWS, 4, 0), dec, strings(random, ROWS, 0)});
    }

    @Test
    void fewRowsAndNone() {
        Random random = new Random(17);
        for (int rows : new int[] {0, 1, 2, 17, 300}) {
            checkAllOrders(new Col[] {strings(random, rows, 4), ints(random, rows, 3, 5)});
        }
    }

    /** A string key read from Arrow (bytes, never decoded) sorts like the same strings decoded. */
    @Test
    void stringsFromArrowBytes() {
        Random random = new Random(18);
        Col s = strings(random, ROWS, 9);
        try (RootAllocator allocator = new RootAllocator(); FieldVector vector = s.write("s", allocator)) {
            NormalizedKeySort.KeyColumn bytes = NormalizedKeySort.KeyColumn.of(Utf8Bytes.of((VarCharVector) vector));
            for (boolean asc : new boolean[] {true, false}) {
                for (boolean nullsFirst : new boolean[] {true, false}) {
                    KeyOrder order = new KeyOrder(List.of(key(asc, nullsFirst)));
                    assertThat(NormalizedKeySort.sort(order, new NormalizedKeySort.KeyColumn[] {bytes}, ROWS))
                            .containsExactly(reference(order, new Col[] {s}, ROWS));
                }
            }
            vector.close();
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    private static SortKey key(boolean asc, boolean nullsFirst) {
        return new SortKey(new Column("c"), asc, nullsFirst);
    }

    /** Every combination of direction and NULL placement, chosen per key at random, plus the all-same ones. */
    private static void checkAllOrders(Col[] keys) {
        int rows = keys[0].length;
        NormalizedKeySort.KeyColumn[] columns = new NormalizedKeySort.KeyColumn[keys.length];
        for (int k = 0; k < keys.length; k++) {
            columns[k] = NormalizedKeySort.KeyColumn.of(keys[k]);
        }
        Random random = new Random(keys.length);
        for (int combination = 0; combination < 8; combination++) {
            List<SortKey> sortKeys = new ArrayList<>();
            for (int k = 0; k < keys.length; k++) {
                boolean asc = combination < 4 ? (combination & 1) == 0 : random.nextBoolean();
                boolean nullsFirst = combination < 4 ? (combination & 2) == 0 : random.nextBoolean();
                sortKeys.add(key(asc, nullsFirst));
            }
            KeyOrder order = new KeyOrder(sortKeys);
            assertThat(NormalizedKeySort.sort(order, columns, rows)).as("%s", sortKeys)
                    .containsExactly(reference(order, keys, rows));
        }
    }

    /** The stable order of the plain comparator. */
    private static int[] reference(KeyOrder order, Col[] keys, int rows) {
        Comparator<Integer> byKeys = (a, b) -> order.compare(keys, a, keys, b);
        return IntStream.range(0, rows).boxed().sorted(byKeys).mapToInt(Integer::intValue).toArray();
    }

    /** Strings of one to three pieces; NULL one row in {@code nullEvery} (never when 0). */
    private static Col strings(Random random, int rows, int nullEvery) {
        String[] values = new String[rows];
        boolean[] nulls = new boolean[rows];
        for (int i = 0; i < rows; i++) {
            StringBuilder b = new StringBuilder();
            int pieces = 1 + random.nextInt(3);
            for (int p = 0; p < pieces; p++) {
                b.append(PIECES[random.nextInt(PIECES.length)]);
            }
            nulls[i] = nullEvery > 0 && random.nextInt(nullEvery) == 0;
            values[i] = nulls[i] ? null : b.toString();
        }
        return Col.ofStrings(values, nullEvery > 0 ? nulls : null);
    }

    private static Col ints(Random random, int rows, int distinct, int nullEvery) {
        long[] values = new long[rows];
        boolean[] nulls = new boolean[rows];
        for (int i = 0; i < rows; i++) {
            values[i] = random.nextInt(distinct) - distinct / 2 + (random.nextInt(50) == 0 ? Integer.MIN_VALUE : 0);
            nulls[i] = nullEvery > 0 && random.nextInt(nullEvery) == 0;
        }
        return Col.ofLongs(DataType.INT32, values, nullEvery > 0 ? nulls : null);
    }

    private static Col doubles(Random random, int rows) {
        double[] specials = {0.0, -0.0, Double.NaN, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, -1.5, 1e300};
        double[] values = new double[rows];
        boolean[] nulls = new boolean[rows];
        for (int i = 0; i < rows; i++) {
            values[i] = random.nextInt(3) == 0 ? specials[random.nextInt(specials.length)] : random.nextInt(8) / 4.0;
            nulls[i] = random.nextInt(9) == 0;
        }
        return Col.ofDoubles(values, nulls);
    }
}
