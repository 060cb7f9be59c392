package io.sluice.tpch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TpchQueriesTest {
    @Test
    void q11sFractionFollowsTheScaleFactorAsTheSpecificationSets() {
        assertThat(TpchQueries.text(11, 1)).isEqualTo(TpchQueries.text(11));
        assertThat(TpchQueries.text(11, 10)).contains("* 0.00001\n").doesNotContain("0.0001\n");
        assertThat(TpchQueries.text(11, 0.1)).contains("* 0.001\n");
        assertThat(TpchQueries.text(6, 10)).isEqualTo(TpchQueries.text(6));
        assertThatThrownBy(() -> TpchQueries.text(11, 0)).hasMessageContaining("scale factor must be positive");
    }
}
