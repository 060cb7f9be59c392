package io.sluice.logical.expr;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import org.junit.jupiter.api.Test;

class AggregateFunctionTest {
    @Test
    void decimalSumsFollowSpark() {
        DataType price = DataType.decimal(15, 2);
        assertThat(AggregateFunction.SUM.resultType(price)).isEqualTo(DataType.decimal(25, 2));
        assertThat(AggregateFunction.SUM.resultType(DataType.decimal(35, 3))).isEqualTo(DataType.decimal(38, 3));
    }
}
