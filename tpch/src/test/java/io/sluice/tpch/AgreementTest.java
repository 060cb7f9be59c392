package io.sluice.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class AgreementTest {
    private static final String ORDERED = "select a, b from t order by a";
    private static final String UNORDERED = "select a, b from t";

    @Test
    void equalAnswersAgree() {
        assertThat(Agreement.of(List.of(List.of("A", 1L)), List.of(List.of("A", 1L)), ORDERED)).isEqualTo("yes");
    }

    @Test
    void aDecimalAverageAgreesWithADoubleOneRoundedToNineDigits() {
        List<List<Object>> decimal = List.of(List.of("A", "25.575155", "0.050081", "526165934.000839"));
        List<List<Object>> rounded = List.of(List.of("A", "25.5751546", "0.0500813391", 526165934L));

        assertThat(Agreement.of(decimal, rounded, ORDERED)).isEqualTo("yes~");
    }

    @Test
    void numbersFurtherApartDisagree() {
        assertThat(Agreement.of(List.of(List.of("A", "0.028649")), List.of(List.of("A", "0.028651")), ORDERED))
                .isEqualTo("NO: 1 vs 1 rows, first [A, 0.028649] vs [A, 0.028651]");
        assertThat(Agreement.of(List.of(List.<Object>of("13")), List.of(List.<Object>of("x13")), ORDERED)).startsWith("NO");
    }

    @Test
    void orderCountsOnlyUnderOrderBy() {
        List<List<Object>> one = List.of(List.of("A", 1L), List.of("B", 2L));
        List<List<Object>> other = List.of(List.of("B", 2L), List.of("A", 1L));

        assertThat(Agreement.of(one, other, ORDERED)).isEqualTo("NO: order differs");
        assertThat(Agreement.of(one, other, UNORDERED)).isEqualTo("yes");
    }

    @Test
    void differentRowCountsAreNamed() {
        assertThat(Agreement.of(List.of(List.of("A", 1L)), List.of(), UNORDERED)).isEqualTo("NO: 1 vs 0 rows");
    }
}
