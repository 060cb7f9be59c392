package io.sluice.operators.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.expr.WindowCall;
import io.sluice.logical.expr.WindowFrame;
import io.sluice.logical.expr.WindowFunction;
import io.sluice.operators.KeyOrder;
import io.sluice.operators.MemorySourceExec;
import io.sluice.operators.OperatorTestBase;
import io.sluice.operators.Partitioning;
import io.sluice.testfixtures.HeapColumns;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The window operator cuts its sorted input after whole partitions wherever batches end: any input
 * and output batch sizes give the same rows, and those rows match a naive computation of each
 * frame (ranks from peers, sums and extremes by scanning the frame).
 */
class WindowExecTest extends OperatorTestBase {
    private static final Schema SCHEMA = new Schema(List.of(new Field("p", DataType.INT64), new Field("o", DataType.INT64),
            new Field("v", DataType.INT64)));

    @ParameterizedTest
    @CsvSource({"1, 1", "2, 3", "3, 1000", "7, 5", "1000, 2", "5000, 5000"})
    void anyBatchingGivesTheNaiveAnswer(int inputBatch, int outputBatch) {
        // p: 0 for 70% of rows (one big partition), else 1..40 and NULL; o with ties and NULLs; v with NULLs
        Random random = new Random(42);
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 1500; i++) {
            Long p = random.nextInt(10) < 7 ? Long.valueOf(0) : random.nextInt(50) == 0 ? null : Long.valueOf(1 + random.nextInt(40));
            Long o = random.nextInt(20) == 0 ? null : Long.valueOf(random.nextInt(30));
            Long v = random.nextInt(9) == 0 ? null : Long.valueOf(random.nextInt(1000) - 500);
            rows.add(new Object[] {p, o, v});
        }
        List<SortKey> order = List.of(SortKey.asc(new Column("p")), SortKey.asc(new Column("o")));
        Col[] all = HeapColumns.of(SCHEMA, rows);
        int[] sorted = new KeyOrder(order).sortedIndexes(new Col[] {all[0], all[1]}, rows.size());
        List<Object[]> sortedRows = new ArrayList<>();
        for (int i : sorted) {
            sortedRows.add(rows.get(i));
        }
        MemorySourceExec source = new MemorySourceExec(SCHEMA, List.of(HeapColumns.batches(SCHEMA, sortedRows, inputBatch)),
                new Partitioning.Single(), order);
        List<Expr> partitionBy = List.of(new Column("p"));
        List<SortKey> orderBy = List.of(SortKey.asc(new Column("o")));
        WindowFrame sliding = new WindowFrame(WindowFrame.Units.ROWS, WindowFrame.Bound.preceding(2),
                WindowFrame.Bound.following(1));
        List<Expr> calls = List.of(
                new Alias(new WindowCall(WindowFunction.RANK, List.of(), partitionBy, orderBy, WindowCall.defaultFrame(orderBy)), "r"),
                new Alias(new WindowCall(WindowFunction.COUNT_STAR, List.of(), partitionBy, orderBy, WindowCall.defaultFrame(orderBy)), "c"),
                new Alias(new WindowCall(WindowFunction.SUM, List.of(new Column("v")), partitionBy, orderBy, sliding), "s"),
                new Alias(new WindowCall(WindowFunction.MIN, List.of(new Column("v")), partitionBy, orderBy, sliding), "mn"),
                new Alias(new WindowCall(WindowFunction.MAX, List.of(new Column("v")), partitionBy, orderBy, sliding), "mx"));
        WindowExec window = new WindowExec(source, calls);
        assertThat(window.requiredInputOrdering()).containsExactly(order);

        List<List<Object>> actual = support.runPartition(window, 0, outputBatch);
        assertThat(actual).isEqualTo(naive(sortedRows));
    }

    /** Each row with rank, count of rows up to its last peer, and sum/min/max over ROWS 2 PRECEDING..1 FOLLOWING. */
    private static List<List<Object>> naive(List<Object[]> rows) {
        List<List<Object>> out = new ArrayList<>();
        int n = rows.size();
        for (int i = 0; i < n; i++) {
            int start = i;
            while (start > 0 && java.util.Objects.equals(rows.get(start - 1)[0], rows.get(i)[0])) {
                start--;
            }
            int end = i + 1;
            while (end < n && java.util.Objects.equals(rows.get(end)[0], rows.get(i)[0])) {
                end++;
            }
            int peerStart = i;
            while (peerStart > start && java.util.Objects.equals(rows.get(peerStart - 1)[1], rows.get(i)[1])) {
                peerStart--;
            }
            int peerEnd = i + 1;
            while (peerEnd < end && java.util.Objects.equals(rows.get(peerEnd)[1], rows.get(i)[1])) {
                peerEnd++;
            }
            Long sum = null;
            Long min = null;
            Long max = null;
            for (int j = Math.max(start, i - 2); j < Math.min(end, i + 2); j++) {
                Long v = (Long) rows.get(j)[2];
                if (v != null) {
                    sum = sum == null ? v : sum + v;
                    min = min == null ? v : Math.min(min, v);
                    max = max == null ? v : Math.max(max, v);
                }
            }
            Object[] row = rows.get(i);
            out.add(java.util.Arrays.asList(row[0], row[1], row[2], (long) (peerStart - start + 1), (long) (peerEnd - start),
                    sum, min, max));
        }
        return out;
    }

    /** A NaN or infinity that leaves a sliding frame leaves no trace in the running double sum. */
    @Test
    void nonFiniteValuesLeaveTheSlidingSum() {
        double inf = Double.POSITIVE_INFINITY;
        Col v = Col.ofDoubles(new double[] {1, inf, 2, Double.NaN, 3, 4, -inf, inf, 5}, null);
        WindowBlock block = WindowBlock.of(9, new Col[0], new KeyOrder(List.of()), new Col[0], new KeyOrder(List.of()));
        WindowFrame lastTwo = new WindowFrame(WindowFrame.Units.ROWS, WindowFrame.Bound.preceding(1),
                WindowFrame.Bound.CURRENT_ROW);
        Col sums = FrameAggregates.compute(AggregateFunction.SUM, v, WindowFrames.of(lastTwo, block, null, null), 9,
                DataType.FLOAT64, "sum(v)");
        assertThat(sums.doubles).containsExactly(1, inf, inf, Double.NaN, Double.NaN, 7, -inf, Double.NaN, inf);
    }
}
