package io.sluice.operators.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.MemorySourceExec;
import io.sluice.operators.OperatorTestBase;
import io.sluice.operators.Partitioning;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An aggregate over input sorted on its group keys streams (its answer: {@code sortedInput}, its
 * output ordered on the keys) and gives exactly the hash aggregate's groups, with groups that span
 * batches, a NULL group, descending keys and both phases.
 */
class SortedAggregateTest extends OperatorTestBase {
    static final Schema SCHEMA = Schema.of(new Field("k", DataType.INT64), new Field("s", DataType.UTF8),
            new Field("v", DataType.INT64));
    static final List<Expr> AGGREGATES = List.of(
            new Alias(new AggregateCall(AggregateFunction.COUNT_STAR, null), "n"),
            new Alias(new AggregateCall(AggregateFunction.SUM, new Column("v")), "sv"),
            new Alias(new AggregateCall(AggregateFunction.MIN, new Column("s")), "ms"),
            new Alias(new AggregateCall(AggregateFunction.AVG, new Column("v")), "av"));

    /**
     * Rows sorted by k (descending, NULLs first) then s, in batches of 7 rows: runs of equal k are 1
     * to 30 rows long, so groups start, end and span batch edges everywhere.
     */
    static MemorySourceExec sortedSource(List<SortKey> ordering) {
        List<Object[]> rows = new ArrayList<>();
        int row = 0;
        for (int i = 0; i < 15; i++) {
            rows.add(new Object[] {null, "n" + (i % 3), (long) i});
        }
        for (long k = 40; k >= 0; k--) {
            long run = 1 + (k * 7) % 30;
            for (int j = 0; j < run; j++, row++) {
                rows.add(new Object[] {k, j % 4 == 0 ? null : "s" + (j % 3), row % 9 == 0 ? null : (long) row});
            }
        }
        rows.sort(Comparator.comparing((Object[] r) -> r[0] == null ? Long.MAX_VALUE : (Long) r[0]).reversed()
                .thenComparing(r -> r[1] == null ? "~" : (String) r[1]));
        List<Col[]> batches = new ArrayList<>();
        for (int from = 0; from < rows.size(); from += 7) {
            List<Object[]> slice = rows.subList(from, Math.min(rows.size(), from + 7));
            int n = slice.size();
            long[] k = new long[n];
            boolean[] kn = new boolean[n];
            String[] s = new String[n];
            boolean[] sn = new boolean[n];
            long[] v = new long[n];
            boolean[] vn = new boolean[n];
            for (int i = 0; i < n; i++) {
                Object[] r = slice.get(i);
                kn[i] = r[0] == null;
                k[i] = kn[i] ? 0 : (Long) r[0];
                sn[i] = r[1] == null;
                s[i] = (String) r[1];
                vn[i] = r[2] == null;
                v[i] = vn[i] ? 0 : (Long) r[2];
            }
            batches.add(new Col[] {Col.ofLongs(DataType.INT64, k, kn), Col.ofStrings(s, sn), Col.ofLongs(DataType.INT64, v, vn)});
        }
        return new MemorySourceExec(SCHEMA, List.of(batches), new Partitioning.Single(), ordering);
    }

    @Test
    void streamsOverInputSortedOnTheGroupKeysAndAgreesWithHashing() {
        List<SortKey> byK = List.of(new SortKey(new Column("k"), false, true));
        MemorySourceExec sorted = sortedSource(byK);
        MemorySourceExec unordered = sortedSource(List.of());

        HashAggregateExec streaming = HashAggregateExec.partial(sorted, List.of(new Column("k")), AGGREGATES);
        HashAggregateExec hashing = HashAggregateExec.partial(unordered, List.of(new Column("k")), AGGREGATES);
        assertThat(streaming.sortedInput()).isTrue();
        assertThat(hashing.sortedInput()).isFalse();
        assertThat(streaming.describe()).startsWith("HashAggregateExec: mode=partial, sorted, groupBy=[k]");
        assertThat(streaming.properties().ordering()).isEqualTo(byK);
        List<List<Object>> streamed = support.runPartition(streaming, 0, 5);
        assertThat(streamed).hasSize(42); // k 40..0 and NULL
        assertThat(streamed.get(0).get(0)).isNull(); // NULLs first, then descending, as the input
        assertThat(streamed.get(1).get(0)).isEqualTo(40L);
        assertThat(streamed.get(41).get(0)).isEqualTo(0L);
        assertThat(streamed).containsExactlyInAnyOrderElementsOf(support.runPartition(hashing, 0, 5));

        // the final phase over the sorted partial output streams too, and equals the hashed final phase
        HashAggregateExec finalStreaming = HashAggregateExec.finalPhase(streaming, streaming);
        HashAggregateExec finalHashing = HashAggregateExec.finalPhase(hashing, hashing);
        assertThat(finalStreaming.sortedInput()).isTrue();
        assertThat(finalHashing.sortedInput()).isFalse();
        List<List<Object>> result = support.runPartition(finalStreaming, 0, 3);
        assertThat(result).containsExactlyElementsOf(support.runPartition(finalHashing, 0, 3).stream()
                .sorted(Comparator.comparing((List<Object> r) -> r.get(0) == null ? Long.MAX_VALUE : (Long) r.get(0)).reversed())
                .toList());
    }

    @Test
    void twoKeysInEitherOrderAreCoveredByTheInputOrderingOnlyWhenItLeadsWithBoth() {
        List<SortKey> byKs = List.of(new SortKey(new Column("k"), false, true), SortKey.asc(new Column("s")));
        MemorySourceExec sorted = sortedSource(byKs);
        HashAggregateExec sk = HashAggregateExec.partial(sorted, List.of(new Column("s"), new Column("k")), AGGREGATES);
        assertThat(sk.sortedInput()).isTrue();
        HashAggregateExec hashed = HashAggregateExec.partial(sortedSource(List.of()),
                List.of(new Column("s"), new Column("k")), AGGREGATES);
        assertThat(support.runPartition(sk, 0, 4)).containsExactlyInAnyOrderElementsOf(support.runPartition(hashed, 0, 4));
        // grouped by s alone, the input (sorted by k first) does not keep equal s adjacent
        assertThat(HashAggregateExec.partial(sorted, List.of(new Column("s")), AGGREGATES).sortedInput()).isFalse();
    }
}
