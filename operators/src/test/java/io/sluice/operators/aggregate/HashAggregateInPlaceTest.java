package io.sluice.operators.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import io.sluice.kernels.InPlaceValues;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.MemorySourceExec;
import io.sluice.operators.OperatorTestBase;
import io.sluice.operators.Partitioning;
import io.sluice.operators.TaskContext;
import io.sluice.operators.join.JoinTestSupport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/**
 * The aggregate's in-place path (keys and arguments read from fixed-width Arrow vectors,
 * {@link InPlaceValues}) against its heap path over the same rows: every long-backed key type as a
 * single key (the in-place probe), NULL keys and NULL values with a different value under each
 * NULL slot, every accumulator over every argument type it reads in place, batches all Arrow,
 * all heap, and alternating.
 */
class HashAggregateInPlaceTest extends OperatorTestBase {
    private static final DataType DEC = DataType.decimal(10, 2);
    private static final Schema SCHEMA = Schema.of(new Field("ki", DataType.INT32), new Field("kl", DataType.INT64),
            new Field("kd", DataType.DATE32), new Field("kt", DataType.TIMESTAMP), new Field("kc", DEC),
            new Field("vi", DataType.INT32), new Field("vl", DataType.INT64), new Field("vx", DataType.FLOAT64),
            new Field("vc", DEC), new Field("vd", DataType.DATE32), new Field("vt", DataType.TIMESTAMP),
            new Field("s", DataType.UTF8));

    /** Four batches of random rows; each column NULL on about a sixth of its rows, garbage under the NULLs. */
    private static List<Col[]> batches(long seed) {
        Random random = new Random(seed);
        List<Col[]> out = new ArrayList<>();
        for (int b = 0; b < 4; b++) {
            int n = 500 + 97 * b;
            Col[] cols = new Col[SCHEMA.size()];
            for (int c = 0; c < cols.length; c++) {
                DataType type = SCHEMA.field(c).type();
                boolean[] nulls = new boolean[n];
                boolean key = SCHEMA.field(c).name().startsWith("k");
                if (type.kind() == DataType.Kind.UTF8) {
                    String[] strings = new String[n];
                    for (int i = 0; i < n; i++) {
                        nulls[i] = random.nextInt(6) == 0;
                        strings[i] = nulls[i] ? null : "s" + random.nextInt(3);
                    }
                    cols[c] = Col.ofStrings(strings, nulls);
                    continue;
                }
                if (type.kind() == DataType.Kind.FLOAT64) {
                    double[] doubles = new double[n];
                    for (int i = 0; i < n; i++) {
                        nulls[i] = random.nextInt(6) == 0;
                        // NaN (above every value in max and min) and both zeros now and then
                        int pick = random.nextInt(60);
                        double value = pick == 0 ? Double.NaN : pick == 1 ? -0.0 : pick == 2 ? 0.0
                                : random.nextInt(2000) / 8.0 - 125;
                        doubles[i] = nulls[i] ? 1e300 * (i + 1) : value;
                    }
                    cols[c] = Col.ofDoubles(doubles, nulls);
                    continue;
                }
                long[] longs = new long[n];
                for (int i = 0; i < n; i++) {
                    nulls[i] = random.nextInt(6) == 0;
                    long value = key ? random.nextInt(40) - 20 : random.nextInt(200_000) - 100_000;
                    // under a NULL: a value that no row has and that would win min and max
                    longs[i] = nulls[i] ? (i % 2 == 0 ? 1 : -1) * (1_000_000 + i) : value;
                }
                cols[c] = Col.ofLongs(type, longs, nulls);
            }
            out.add(cols);
        }
        return out;
    }

    private static Expr agg(AggregateFunction f, String column, String name) {
        return new Alias(new AggregateCall(f, column == null ? null : new Column(column), null), name);
    }

    /** Every accumulator that reads in place, over every argument type it reads, plus avg. */
    private static List<Expr> aggregates() {
        List<Expr> out = new ArrayList<>();
        out.add(agg(AggregateFunction.COUNT_STAR, null, "n"));
        for (String v : List.of("vi", "vl", "vx", "vc", "vd", "vt")) {
            out.add(agg(AggregateFunction.COUNT, v, "count_" + v));
            out.add(agg(AggregateFunction.MIN, v, "min_" + v));
            out.add(agg(AggregateFunction.MAX, v, "max_" + v));
        }
        out.add(agg(AggregateFunction.COUNT, "s", "count_s")); // from the string vector's validity bits
        for (String v : List.of("vi", "vl", "vx", "vc")) {
            out.add(agg(AggregateFunction.SUM, v, "sum_" + v));
            out.add(agg(AggregateFunction.AVG, v, "avg_" + v));
        }
        return out;
    }

    private List<List<Object>> run(ExecutionPlan source, List<String> keys) {
        return run(source, keys, aggregates());
    }

    private List<List<Object>> run(ExecutionPlan source, List<String> keys, List<Expr> aggregates) {
        List<Expr> groupBy = keys.stream().map(k -> (Expr) new Column(k)).toList();
        HashAggregateExec partial = HashAggregateExec.partial(source, groupBy, aggregates);
        return JoinTestSupport.sorted(support.runPartition(HashAggregateExec.finalPhase(partial, partial), 0, 512));
    }

    @Test
    void inPlaceMatchesHeapForEveryKeyTypeAndAccumulator() {
        List<Col[]> data = batches(7);
        MemorySourceExec heap = new MemorySourceExec(SCHEMA, List.of(data), new Partitioning.Single(), List.of());
        MemorySourceExec arrow = new MemorySourceExec(SCHEMA, List.of(data), new Partitioning.Single(), List.of()).withArrowValuesUnderNulls();
        for (List<String> keys : List.of(List.of("ki"), List.of("kl"), List.of("kd"), List.of("kt"), List.of("kc"),
                List.of("ki", "s"), List.of("s"), List.<String>of())) {
            List<List<Object>> expected = run(heap, keys);
            assertThat(expected).isNotEmpty();
            assertThat(run(arrow, keys)).as("Arrow batches by %s", keys).isEqualTo(expected);
            assertThat(run(heap.withArrowBatches(), keys)).as("alternating batches by %s", keys).isEqualTo(expected);
        }
        // the NULL key is one group (besides the 40 values)
        List<List<Object>> byKi = run(arrow, List.of("ki"));
        assertThat(byKi).hasSize(41);
        assertThat(byKi.stream().filter(r -> r.get(0) == null).count()).isEqualTo(1);
    }

    /**
     * A sum and an average of one argument in one aggregate keep one state (the later reads the
     * earlier's) and give what each gives alone, with NULL arguments, by a packed key and by none.
     */
    @Test
    void aSumAndAnAverageOfOneArgumentShareOneStateAndAgreeWithEachAlone() {
        List<Col[]> data = batches(17);
        MemorySourceExec arrow = new MemorySourceExec(SCHEMA, List.of(data), new Partitioning.Single(), List.of())
                .withArrowValuesUnderNulls();
        List<Expr> together = List.of(agg(AggregateFunction.SUM, "vc", "sum_c"), agg(AggregateFunction.AVG, "vc", "avg_c"),
                agg(AggregateFunction.AVG, "vl", "avg_l"), agg(AggregateFunction.SUM, "vl", "sum_l"));
        Accumulator[] accumulators = HashAggregateExec.partial(arrow, List.of(), together).newAccumulators();
        assertThat(accumulators).extracting(Accumulator::sharesState).containsExactly(false, true, false, true);
        for (List<String> keys : List.of(List.of("ki", "s"), List.<String>of())) {
            List<List<Object>> rows = run(arrow, keys, together);
            for (int a = 0; a < together.size(); a++) {
                List<List<Object>> alone = run(arrow, keys, List.of(together.get(a)));
                assertThat(alone).hasSameSizeAs(rows);
                for (int r = 0; r < rows.size(); r++) {
                    assertThat(rows.get(r).get(keys.size() + a)).as("%s, row %d by %s", together.get(a), r, keys)
                            .isEqualTo(alone.get(r).get(keys.size()));
                }
            }
        }
    }

    @Test
    void finalMergeOfStatesInArrowVectorsMatchesHeap() {
        // a final phase reading its partial states as a shuffle fetch hands them: Arrow vectors
        List<Col[]> data = batches(13);
        MemorySourceExec heap = new MemorySourceExec(SCHEMA, List.of(data), new Partitioning.Single(), List.of());
        for (List<String> keys : List.of(List.of("ki"), List.of("kc", "s"), List.<String>of())) {
            List<Expr> groupBy = keys.stream().map(k -> (Expr) new Column(k)).toList();
            HashAggregateExec partial = HashAggregateExec.partial(heap, groupBy, aggregates());
            List<Col[]> states = new ArrayList<>();
            try (BufferAllocator allocator = new RootAllocator();
                    BatchStream stream = partial.execute(0, new TaskContext("partial", allocator, 512, Map.of()))) {
                for (Batch next = stream.next(); next != null; next = stream.next()) {
                    try (Batch b = next) {
                        states.add(b.columns());
                    }
                }
            }
            MemorySourceExec onHeap = new MemorySourceExec(partial.schema(), List.of(states), new Partitioning.Single(),
                    List.of());
            List<List<Object>> expected = JoinTestSupport.sorted(support.runPartition(
                    HashAggregateExec.finalPhase(onHeap, partial), 0, 512));
            assertThat(expected).isNotEmpty();
            assertThat(JoinTestSupport.sorted(support.runPartition(
                    HashAggregateExec.finalPhase(onHeap.withArrowValuesUnderNulls(), partial), 0, 512)))
                    .as("states as Arrow, by %s", keys).isEqualTo(expected);
        }
    }

    @Test
    void partialStatesInPlaceMatchHeap() {
        List<Col[]> data = batches(11);
        MemorySourceExec heap = new MemorySourceExec(SCHEMA, List.of(data), new Partitioning.Single(), List.of());
        for (String key : List.of("ki", "kc")) {
            HashAggregateExec onHeap = HashAggregateExec.partial(heap, List.of(new Column(key)), aggregates());
            HashAggregateExec inPlace = HashAggregateExec.partial(new MemorySourceExec(SCHEMA, List.of(data), new Partitioning.Single(), List.of()).withArrowValuesUnderNulls(),
                    List.of(new Column(key)), aggregates());
            assertThat(JoinTestSupport.sorted(support.runPartition(inPlace, 0, 512)))
                    .isEqualTo(JoinTestSupport.sorted(support.runPartition(onHeap, 0, 512)));
        }
    }

    @Test
    void minAndMaxOfLongsAtTheirExtremesInPlaceMatchHeap() {
        Schema schema = Schema.of(new Field("k", DataType.INT32), new Field("v", DataType.INT64));
        long[] values = {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1, Long.MAX_VALUE - 1, Long.MIN_VALUE + 1, 7};
        long[] keys = {1, 1, 2, 2, 3, 3, 4, 4};
        Col[] cols = {Col.ofLongs(DataType.INT32, keys, null), Col.ofLongs(DataType.INT64, values, null)};
        Col[] reversed = {Col.ofLongs(DataType.INT32, keys, null), Col.ofLongs(DataType.INT64,
                java.util.stream.LongStream.of(values).map(v -> ~v).toArray(), null)};
        List<Expr> minMax = List.of(agg(AggregateFunction.MIN, "v", "lo"), agg(AggregateFunction.MAX, "v", "hi"));
        List<Col[]> batches = List.of(cols, reversed);
        MemorySourceExec heap = new MemorySourceExec(schema, List.of(batches), new Partitioning.Single(), List.of());
        HashAggregateExec onHeap = HashAggregateExec.partial(heap, List.of(new Column("k")), minMax);
        HashAggregateExec inPlace = HashAggregateExec.partial(heap.withArrowValuesUnderNulls(), List.of(new Column("k")), minMax);
        List<List<Object>> expected = JoinTestSupport.sorted(support.runPartition(onHeap, 0, 512));
        assertThat(expected).contains(List.of(1L, Long.MIN_VALUE, Long.MAX_VALUE));
        assertThat(JoinTestSupport.sorted(support.runPartition(inPlace, 0, 512))).isEqualTo(expected);
    }

    @Test
    void aSumPastALongFailsInPlaceAsOnTheHeap() {
        Schema schema = Schema.of(new Field("k", DataType.INT32), new Field("v", DataType.INT64));
        Col[] cols = {Col.ofLongs(DataType.INT32, new long[] {1, 1, 2}, null),
                Col.ofLongs(DataType.INT64, new long[] {Long.MAX_VALUE, 1, 5}, null)};
        List<Expr> sum = List.of(agg(AggregateFunction.SUM, "v", "sv"));
        for (ExecutionPlan source : List.of(new MemorySourceExec(schema, List.of(List.<Col[]>of(cols)), new Partitioning.Single(), List.of()).withArrowValuesUnderNulls(),
                new MemorySourceExec(schema, List.of(List.<Col[]>of(cols)), new Partitioning.Single(), List.of()))) {
            HashAggregateExec partial = HashAggregateExec.partial(source, List.of(new Column("k")), sum);
            assertThatThrownBy(() -> support.runPartition(partial, 0, 512)).isInstanceOf(SluiceException.class)
                    .hasMessageContaining("numeric overflow");
        }
    }
}
