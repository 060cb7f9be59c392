package io.sluice.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.junit.jupiter.api.Test;

/** EXPLAIN ANALYZE's times print as {@code %.2fms} would print them, without a formatter. */
class AnalyzedPlanTextTest {
    @Test
    void millisecondsPrintWithTwoDecimalsRoundedHalfUp() {
        assertThat(AnalyzedPlanText.millis(0)).isEqualTo("0.00ms");
        assertThat(AnalyzedPlanText.millis(4_999)).isEqualTo("0.00ms");
        assertThat(AnalyzedPlanText.millis(5_000)).isEqualTo("0.01ms");
        assertThat(AnalyzedPlanText.millis(125_000)).isEqualTo("0.13ms");
        assertThat(AnalyzedPlanText.millis(1_050_000)).isEqualTo("1.05ms");
        assertThat(AnalyzedPlanText.millis(96_514_321)).isEqualTo("96.51ms");
        assertThat(AnalyzedPlanText.millis(12_345_678_901L)).isEqualTo("12345.68ms");
        assertThat(AnalyzedPlanText.millis(-2_500_000)).isEqualTo("-2.50ms");
    }

    @Test
    void agreesWithTheFormatterOverManyValues() {
        for (long nanos = 0; nanos < 200_000_000L; nanos += 77_773) {
            assertThat(AnalyzedPlanText.millis(nanos)).isEqualTo(String.format(Locale.ROOT, "%.2fms", nanos / 1e6));
        }
    }
}
