package io.sluice.operators.basic;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.operators.OperatorTestBase;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class PoissonSampleExecTest extends OperatorTestBase {
    @Test
    void keepsAboutTheFractionTimesTheRowsWithRepeatsAndTheSameRowsForTheSameSeed() {
        for (double fraction : new double[] {0.3, 2.5, 20}) {
            PoissonSampleExec sample = new PoissonSampleExec(SampleExecTest.source(1000, 2), fraction, 42);
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
        assertThat(support.run(new PoissonSampleExec(SampleExecTest.source(500, 2), 0.0, 1), 1024)).isEmpty();
    }
}
