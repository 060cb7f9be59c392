package io.sluice.operators.sort;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.KeyOrder;
import io.sluice.operators.MemorySourceExec;
import io.sluice.operators.OperatorTestBase;
import io.sluice.operators.Partitioning;
import io.sluice.operators.join.JoinTestSupport.Table;
import io.sluice.operators.join.JoinTestSupport;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A sort with a fetch keeps only k rows: its result is exactly a full (stable) sort cut to k, with
 * ties and NULLs in every key, and what it holds does not grow with the input.
 */
class TopKTest extends OperatorTestBase {
    @ParameterizedTest
    @CsvSource({
        "1, true, false", "7, true, true", "7, false, false", "100, false, true", "999, true, false",
        "3000, true, true", "5000, false, false",
    })
    void equalsAFullSortCutToK(int k, boolean ascending, boolean nullsFirst) {
        // k1: 40 values and NULLs, k2: 5 strings and NULLs, v: row number (shows tie order)
        Table t = JoinTestSupport.table("t", "v", DataType.INT64, 3000, 40, 11, true);
        MemorySourceExec source = JoinTestSupport.source(t, new Partitioning.Unknown(1), row -> 0, 128);
        List<SortKey> keys = List.of(new SortKey(new Column("t.k1"), ascending, nullsFirst),
                new SortKey(new Column("t.k2"), !ascending, !nullsFirst));
        List<List<Object>> full = support.runPartition(new SortExec(source, keys, SortExec.NO_FETCH, true), 0, 100);
        List<List<Object>> top = support.runPartition(new SortExec(source, keys, k, true), 0, 100);
        assertThat(top).isEqualTo(full.subList(0, Math.min(k, full.size())));
    }

    @Test
    void heldRowsDoNotGrowWithTheInput() {
        int k = 50;
        int batch = 4096;
        KeyOrder order = new KeyOrder(List.of(SortKey.desc(new Column("x"))));
        long[] peaks = new long[3];
        long[] nanos = new long[3];
        int[] sizes = {100_000, 1_000_000, 4_000_000};
        for (int s = 0; s < sizes.length; s++) {
            TopKBuffer buffer = new TopKBuffer(order, k);
            java.util.Random random = new java.util.Random(5);
            long start = System.nanoTime();
            for (int done = 0; done < sizes[s]; done += batch) {
                long[] values = new long[batch];
                for (int i = 0; i < batch; i++) {
                    // half the batches rise (each row enters the top-k: the worst case), half are random
                    values[i] = (done / batch) % 2 == 0 ? (1L << 40) + done + i : random.nextInt();
                }
                Col c = Col.ofLongs(DataType.INT64, values, null);
                buffer.add(new Col[] {c}, new Col[] {c}, batch);
            }
            buffer.result();
            nanos[s] = System.nanoTime() - start;
            peaks[s] = buffer.peakSize();
            assertThat(buffer.size()).isEqualTo(k);
        }
        System.out.printf("top-%d of %,d / %,d / %,d rows: peak rows held %d / %d / %d, ms %d / %d / %d%n", k,
                sizes[0], sizes[1], sizes[2], peaks[0], peaks[1], peaks[2],
                nanos[0] / 1_000_000, nanos[1] / 1_000_000, nanos[2] / 1_000_000);
        for (long peak : peaks) {
            assertThat(peak).isLessThanOrEqualTo(2L * k + batch);
        }
    }
}
