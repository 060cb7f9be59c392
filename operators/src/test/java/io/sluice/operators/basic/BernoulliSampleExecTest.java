package io.sluice.operators.basic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.operators.OperatorTestBase;
import io.sluice.operators.Partitioning;
import java.util.List;
import org.junit.jupiter.api.Test;

class BernoulliSampleExecTest extends OperatorTestBase {
    @Test
    void keepsAboutTheFractionInOrderAndTheSameRowsForTheSameSeed() {
        BernoulliSampleExec sample = new BernoulliSampleExec(SampleExecTest.source(10000, 2), 0.3, 42);
        assertThat(sample.schema()).isEqualTo(SampleExecTest.SCHEMA);
        assertThat(sample.properties().partitioning()).isEqualTo(new Partitioning.Unknown(2));
        for (int p = 0; p < 2; p++) {
            List<List<Object>> rows = support.runPartition(sample, p, 1024);
            // 3000 expected of 10000 (standard deviation about 46)
            assertThat(rows.size()).isBetween(2700, 3300);
            long previous = -1;
            for (List<Object> row : rows) {
                long id = (Long) row.get(0);
                assertThat(id).isGreaterThan(previous).isBetween(p * 10000L, p * 10000L + 9999);
                assertThat(row.get(1)).isEqualTo(id % 17 == 0 ? null : "s" + (id % 100));
                previous = id;
            }
            assertThat(support.runPartition(sample, p, 1024)).as("deterministic").isEqualTo(rows);
            assertThat(support.runPartition(new BernoulliSampleExec(SampleExecTest.source(10000, 2), 0.3, 43), p, 1024))
                    .as("another seed").isNotEqualTo(rows);
        }
    }

    @Test
    void fractionsZeroAndOneAndOutOfRange() {
        assertThat(support.run(new BernoulliSampleExec(SampleExecTest.source(500, 2), 0.0, 1), 1024)).isEmpty();
        assertThat(support.run(new BernoulliSampleExec(SampleExecTest.source(500, 2), 1.0, 1), 1024)).hasSize(1000);
        assertThatThrownBy(() -> new BernoulliSampleExec(SampleExecTest.source(5, 1), -0.1, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("between 0 and 1, not -0.1");
    }
}
