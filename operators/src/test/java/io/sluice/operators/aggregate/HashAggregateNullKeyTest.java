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
import io.sluice.operators.MemorySourceExec;
import io.sluice.operators.OperatorTestBase;
import io.sluice.operators.Partitioning;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A partial aggregate alone (one phase, no re-grouping after it) puts all NULL keys in one group,
 * even when the NULL slots hold a different value on every row.
 */
class HashAggregateNullKeyTest extends OperatorTestBase {
    @Test
    void onePartialGroupForAllNullKeys() {
        // k: NULL on every third row, with a different value under each NULL slot (as a kernel may
        // leave); s: a string key with NULLs. Three batches, so groups meet across batches.
        Schema schema = Schema.of(new Field("k", DataType.INT64), new Field("s", DataType.UTF8));
        List<Col[]> batches = new ArrayList<>();
        int perBatch = 300;
        for (int b = 0; b < 3; b++) {
            long[] k = new long[perBatch];
            boolean[] kNull = new boolean[perBatch];
            String[] s = new String[perBatch];
            boolean[] sNull = new boolean[perBatch];
            for (int i = 0; i < perBatch; i++) {
                int row = b * perBatch + i;
                kNull[i] = row % 3 == 0;
                k[i] = kNull[i] ? 1_000_000 + row : row % 5;
                sNull[i] = row % 4 == 0;
                s[i] = sNull[i] ? null : "s" + row % 2;
            }
            batches.add(new Col[] {Col.ofLongs(DataType.INT64, k, kNull), Col.ofStrings(s, sNull)});
        }
        MemorySourceExec source = new MemorySourceExec(schema, List.of(batches), new Partitioning.Single(), List.of());
        List<Expr> count = List.of(new Alias(new AggregateCall(AggregateFunction.COUNT_STAR, null), "n"));

        HashAggregateExec byK = HashAggregateExec.partial(source, List.of(new Column("k")), count);
        List<List<Object>> rows = support.runPartition(byK, 0, 512);
        assertThat(rows).hasSize(6); // k in 0..4 and NULL
        assertThat(rows.stream().filter(r -> r.get(0) == null).toList()).containsExactly(java.util.Arrays.asList(null, 300L));

        HashAggregateExec byKs = HashAggregateExec.partial(source, List.of(new Column("k"), new Column("s")), count);
        List<List<Object>> pairs = support.runPartition(byKs, 0, 512);
        // NULL k with s0, s1 and NULL s: three groups holding the 300 NULL-k rows
        List<List<Object>> nullK = pairs.stream().filter(r -> r.get(0) == null).toList();
        assertThat(nullK).hasSize(3);
        assertThat(nullK.stream().mapToLong(r -> (Long) r.get(2)).sum()).isEqualTo(300);
        assertThat(pairs).hasSize(18); // (5 values + NULL) x (2 strings + NULL)
    }
}
