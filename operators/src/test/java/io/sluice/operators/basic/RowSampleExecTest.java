package io.sluice.operators.basic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.operators.OperatorTestBase;
import io.sluice.operators.Partitioning;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class RowSampleExecTest extends OperatorTestBase {
    @Test
    void keepsAboutTheFractionInOrderAndTheSameRowsForTheSameSeed() {
        RowSampleExec sample = new RowSampleExec(SampleExecTest.source(10000, 2), 0.3, 42, false);
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
            assertThat(support.runPartition(new RowSampleExec(SampleExecTest.source(10000, 2), 0.3, 43, false), p, 1024))
                    .as("another seed").isNotEqualTo(rows);
        }
    }

    @Test
    void fractionsZeroAndOneAndOutOfRange() {
        assertThat(support.run(new RowSampleExec(SampleExecTest.source(500, 2), 0.0, 1, false), 1024)).isEmpty();
        assertThat(support.run(new RowSampleExec(SampleExecTest.source(500, 2), 1.0, 1, false), 1024)).hasSize(1000);
        assertThatThrownBy(() -> new RowSampleExec(SampleExecTest.source(5, 1), -0.1, 1, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("between 0 and 1, not -0.1");
    }

    @Test
    void withReplacementKeepsAboutTheFractionTimesTheRowsWithRepeatsAndTheSameRowsForTheSameSeed() {
        for (double fraction : new double[] {0.3, 2.5, 20}) {
            RowSampleExec sample = new RowSampleExec(SampleExecTest.source(1000, 2), fraction, 42, true);
            List<List<Object>> rows = support.runPartition(sample, 1, 1024);
            double expected = 1000 * fraction;
            // within 5 standard deviations (sqrt of the mean) of the mean
            assertThat((double) rows.size()).as("fraction " + fraction).isBetween(expected - 5 * Math.sqrt(expected),
                    expected + 5 * Math.sqrt(expected));
            long previous = -1;
            for (List<Object> row : rows) {
                long id = (Long) row.get(0);
                assertThat(id).isGreaterThanOrEqualTo(previous).isBetween(1000L, 1999L);
                previous = id;
            }
            assertThat(new HashSet<>(rows)).as("repeats").hasSizeLessThan(rows.size());
            assertThat(support.runPartition(sample, 1, 1024)).as("deterministic").isEqualTo(rows);
        }
        assertThat(support.run(new RowSampleExec(SampleExecTest.source(500, 2), 0.0, 1, true), 1024)).isEmpty();
    }
}
