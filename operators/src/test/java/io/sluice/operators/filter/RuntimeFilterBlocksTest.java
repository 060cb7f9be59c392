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
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The blocked Bloom filter keeps every build key at any size (from one word, smaller than a block,
 * to the largest), and at its planned bits a key drops all but about 1.3% of the keys it never saw;
 * two keys (a hashed pair) and one key read in place from Arrow alike.
 */
class RuntimeFilterBlocksTest {
    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void closeAllocator() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    /**
     * {@code rows} distinct keys (odd from {@code odd}, else even) spread over {@code [0, 2^29 *
     * span)}, one column or that and its half.
     */
    private Batch keys(int rows, int span, boolean odd, int columns, boolean asArrow) {
        long[] a = new long[rows];
        long[] b = new long[rows];
        Random random = new Random(odd ? 11 : 12);
        for (int i = 0; i < rows; i++) {
            long stride = (long) (span / rows) << 28;
            a[i] = 2L * (random.nextInt(1 << 28) + i * stride) + (odd ? 1 : 0);
            b[i] = a[i] / 2;
        }
        Col first = Col.ofLongs(DataType.INT64, a, null);
        Col second = Col.ofLongs(DataType.INT64, b, null);
        Schema schema = columns == 1 ? Schema.of(new Field("k1", DataType.INT64))
                : Schema.of(new Field("k1", DataType.INT64), new Field("k2", DataType.INT64));
        if (asArrow) {
            FieldVector[] vectors = columns == 1 ? new FieldVector[] {first.write("k1", allocator)}
                    : new FieldVector[] {first.write("k1", allocator), second.write("k2", allocator)};
            return Batch.of(schema, new Col[columns], vectors, rows, null);
        }
        return Batch.of(schema, columns == 1 ? new Col[] {first} : new Col[] {first, second}, rows, allocator);
    }

    private static List<Expr> names(int columns) {
        return columns == 1 ? List.of(new Column("k1")) : List.of(new Column("k1"), new Column("k2"));
    }

    private static int kept(RuntimeFilter filter, Batch batch, int columns) {
        return filter.select(new BoundExprs(names(columns), batch.schema()), batch, new int[batch.rowCount()]);
    }

    @Test
    void everyBuildKeyIsKeptAtEverySize() {
        for (long bits : new long[] {64, 512, RuntimeFilter.MIN_BITS, RuntimeFilter.MAX_BITS}) {
            for (int columns = 1; columns <= 2; columns++) {
                RuntimeFilter.Builder builder = new RuntimeFilter.Builder(names(columns), bits);
                try (Batch build = keys(5_000, 5_000, true, columns, true)) {
                    builder.add(build);
                    assertThat(kept(builder.build(), build, columns)).as("%d bits, %d keys", bits, columns)
                            .isEqualTo(5_000);
                }
            }
        }
    }

    @Test
    void atItsPlannedSizeAboutOnePercentOfOtherKeysPass() {
        int buildKeys = 50_000;
        int others = 200_000;
        for (int columns = 1; columns <= 2; columns++) {
            for (boolean asArrow : new boolean[] {true, false}) {
                RuntimeFilter.Builder builder = new RuntimeFilter.Builder(names(columns), RuntimeFilter.bitsFor(buildKeys));
                try (Batch build = keys(buildKeys, others, true, columns, asArrow)) {
                    builder.add(build);
                }
                RuntimeFilter filter = builder.build();
                try (Batch probe = keys(others, others, false, columns, asArrow)) {
                    double rate = kept(filter, probe, columns) / (double) others;
                    // 2^19 bits for 50,000 keys is 10.5 a key: expect about 1.2% (both sides span one
                    // range, so the single key's range drops none of them)
                    assertThat(rate).as("%d keys, arrow %s", columns, asArrow).isBetween(0.005, 0.02);
                }
            }
        }
    }
}
