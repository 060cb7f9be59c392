package io.sluice.operators.basic;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.MemorySourceExec;
import io.sluice.operators.OperatorTestBase;
import io.sluice.operators.Partitioning;
import io.sluice.operators.join.JoinTestSupport.Table;
import io.sluice.operators.join.JoinTestSupport;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SampleExecTest extends OperatorTestBase {
    static final Schema SCHEMA = Schema.of(new Field("id", DataType.INT64), new Field("s", DataType.UTF8));

    static MemorySourceExec source(int rowsPerPartition, int partitions) {
        List<Object[]> rows = new ArrayList<>();
        for (long i = 0; i < (long) rowsPerPartition * partitions; i++) {
            rows.add(new Object[] {i, i % 17 == 0 ? null : "s" + (i % 100)});
        }
        Table t = new Table("t", SCHEMA, rows);
        return JoinTestSupport.source(t, new Partitioning.Unknown(partitions),
                row -> (int) ((Long) row[0] / rowsPerPartition), 997);
    }

    @Test
    void keepsAtMostMaxRowsOfEachPartitionUniformly() {
        SampleExec sample = new SampleExec(source(10000, 2),
                List.of(SortKey.asc(new Column("id")), SortKey.asc(new Column("s"))), 500);
        assertThat(sample.schema().names()).containsExactly("id", "s", SampleExec.WEIGHT_COLUMN);
        assertThat(sample.properties().partitioning()).isEqualTo(new Partitioning.Unknown(2));
        for (int p = 0; p < 2; p++) {
            List<List<Object>> rows = support.runPartition(sample, p, 128);
            assertThat(rows).hasSize(500);
            Set<Object> ids = new HashSet<>();
            double sum = 0;
            for (List<Object> row : rows) {
                long id = (Long) row.get(0);
                assertThat(id).isBetween(p * 10000L, p * 10000L + 9999);
                assertThat(row.get(1)).isEqualTo(id % 17 == 0 ? null : "s" + (id % 100));
                assertThat(ids.add(id)).isTrue();
                sum += id - p * 10000L;
            }
            // The mean of a uniform sample of 0..9999 is near 5000 (standard error about 130).
            assertThat(sum / rows.size()).isBetween(4400.0, 5600.0);
            // Rows late in the input are as likely as early ones.
            long half = p * 10000L + 5000;
            long late = rows.stream().filter(row -> (Long) row.get(0) >= half).count();
            assertThat(late).isBetween(200L, 300L);
            assertThat(support.runPartition(sample, p, 128)).as("deterministic").isEqualTo(rows);
        }
    }

    @Test
    void smallInputsAreKeptWholeAndKeysMayBeExpressions() {
        Binary doubled = new Binary(BinaryOp.MULTIPLY, new Column("id"), Literal.of(2L));
        SampleExec sample = new SampleExec(source(30, 3), List.of(SortKey.desc(doubled)), 100);
        assertThat(sample.schema().names()).containsExactly(doubled.name(), SampleExec.WEIGHT_COLUMN);
        List<List<Object>> rows = support.run(sample, 7);
        assertThat(rows).hasSize(90);
        assertThat(rows.stream().map(r -> (Long) r.get(0)).sorted().toList().get(89)).isEqualTo(178L);
        assertThat(support.run(new SampleExec(source(0, 1), List.of(SortKey.asc(new Column("id"))), 10), 8)).isEmpty();
    }

    /**
     * Grouping input partitions into fewer sampling tasks changes neither the rows kept nor their
     * weights: each input partition keeps its own reservoir, seed and weight.
     */
    @Test
    void groupedPartitionsGiveTheSameSampleAsOneTaskEach() {
        MemorySourceExec input = source(3000, 5);
        List<SortKey> keys = List.of(SortKey.asc(new Column("id")));
        SampleExec each = new SampleExec(input, keys, 200);
        SampleExec grouped = new SampleExec(input, keys, 200, 2);
        assertThat(grouped.properties().partitioning()).isEqualTo(new Partitioning.Unknown(3));
        List<List<Object>> expected = new java.util.ArrayList<>();
        for (int p = 0; p < 5; p++) {
            expected.addAll(support.runPartition(each, p, 64));
        }
        List<List<Object>> actual = new java.util.ArrayList<>();
        for (int p = 0; p < 3; p++) {
            actual.addAll(support.runPartition(grouped, p, 64));
        }
        assertThat(actual).hasSize(1000).isEqualTo(expected);
    }
}
