package io.sluice.operators.sort;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.KeyOrder;
import io.sluice.operators.MemorySourceExec;
import io.sluice.operators.OperatorTestBase;
import io.sluice.operators.Partitioning;
import io.sluice.operators.join.JoinTestSupport;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A full sort buffers Arrow batches of any sizes and gathers its output from them: the result is
 * the stable order of the key comparator over every column type the gather copies (ints, longs,
 * doubles, booleans, decimals, dates, strings, NULLs everywhere), whatever the batch sizes.
 */
class SortExecTest extends OperatorTestBase {
    private static final Schema SCHEMA = Schema.of(new Field("k", DataType.INT32), new Field("s", DataType.UTF8),
            new Field("v", DataType.INT64), new Field("x", DataType.FLOAT64), new Field("b", DataType.BOOL),
            new Field("d", DataType.decimal(12, 2)), new Field("day", DataType.DATE32));
    private static final String[] STRINGS = {"", "a", "ab", "é", "€uro", "\uD83D\uDE00", "a-long-string-past-the-prefix-1",
        "a-long-string-past-the-prefix-2"};

    @Test
    void batchesOfAnySizeSortLikeTheComparator() {
        // uniform batches with a larger last one, then irregular ones
        for (int[] sizes : new int[][] {{100, 100, 100, 357}, {5, 300, 1, 77, 250, 0, 9}, {1000}}) {
            List<Col[]> batches = new ArrayList<>();
            Random random = new Random(sizes.length);
            for (int size : sizes) {
                batches.add(batch(random, size));
            }
            int total = IntStream.of(sizes).sum();
            Col[] all = new Col[SCHEMA.size()];
            for (int c = 0; c < all.length; c++) {
                List<Col> parts = new ArrayList<>();
                for (Col[] b : batches) {
                    parts.add(b[c]);
                }
                all[c] = Col.concat(SCHEMA.field(c).type(), parts);
            }
            for (boolean asc : new boolean[] {true, false}) {
                List<SortKey> keys = List.of(new SortKey(new Column("k"), asc, !asc), new SortKey(new Column("s"), !asc, asc));
                MemorySourceExec source = new MemorySourceExec(SCHEMA, List.of(batches), new Partitioning.Unknown(1),
                        List.of());
                List<List<Object>> sorted = support.runPartition(new SortExec(source, keys, SortExec.NO_FETCH, true), 0,
                        64);

                KeyOrder order = new KeyOrder(keys);
                Col[] keyCols = {all[0], all[1]};
                List<List<Object>> expected = IntStream.range(0, total).boxed()
                        .sorted((a, b) -> order.compare(keyCols, a, keyCols, b))
                        .map(row -> rowOf(all, row)).toList();
                assertThat(sorted).as("batches %s, ascending %s", java.util.Arrays.toString(sizes), asc)
                        .isEqualTo(expected);
            }
        }
    }

    private static List<Object> rowOf(Col[] columns, int row) {
        List<Object> out = new ArrayList<>();
        for (Col c : columns) {
            out.add(JoinTestSupport.normalize(c.get(row)));
        }
        return out;
    }

    private static Col[] batch(Random random, int n) {
        long[] k = new long[n];
        String[] s = new String[n];
        long[] v = new long[n];
        double[] x = new double[n];
        boolean[] b = new boolean[n];
        long[] d = new long[n];
        long[] day = new long[n];
        boolean[][] nulls = new boolean[7][n];
        for (int i = 0; i < n; i++) {
            k[i] = random.nextInt(6);
            s[i] = STRINGS[random.nextInt(STRINGS.length)];
            v[i] = random.nextLong();
            x[i] = random.nextDouble();
            b[i] = random.nextBoolean();
            d[i] = random.nextInt(1_000_000) - 500_000;
            day[i] = random.nextInt(20_000);
            for (boolean[] column : nulls) {
                column[i] = random.nextInt(8) == 0;
            }
            if (nulls[1][i]) {
                s[i] = null;
            }
        }
        return new Col[] {Col.ofLongs(DataType.INT32, k, nulls[0]), Col.ofStrings(s, nulls[1]),
            Col.ofLongs(DataType.INT64, v, nulls[2]), Col.ofDoubles(x, nulls[3]), Col.ofBools(b, nulls[4]),
            Col.ofLongs(DataType.decimal(12, 2), d, nulls[5]), Col.ofLongs(DataType.DATE32, day, nulls[6])};
    }
}
