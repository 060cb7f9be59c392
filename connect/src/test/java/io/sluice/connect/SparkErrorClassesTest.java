package io.sluice.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.kernels.SparkErrors;
import org.junit.jupiter.api.Test;

/** Sluice's wording of Spark's ANSI errors gives back the error class and the parameters Spark's client needs. */
class SparkErrorClassesTest {
    @Test
    void divisionByZero() {
        SparkErrorClasses e = SparkErrorClasses.of("task 3 failed: " + SparkErrors.byZero(BinaryOp.MODULO, "(k % d)").getMessage())
                .orElseThrow();
        assertThat(e.errorClass()).isEqualTo("REMAINDER_BY_ZERO");
        assertThat(e.parametersJson()).isEqualTo("{\"config\":\"\\\"spark.sql.ansi.enabled\\\"\"}");
    }

    @Test
    void overflowKeepsTheExpressionAndTheTryFunction() {
        SparkErrorClasses e = SparkErrorClasses.of(SparkErrors.overflow("(x + 1.5)", DataType.INT64, "try_add").getMessage())
                .orElseThrow();
        assertThat(e.errorClass()).isEqualTo("ARITHMETIC_OVERFLOW");
        assertThat(e.parameters()).containsEntry("message", "(x + 1.5) overflows BIGINT")
                .containsEntry("alternative", " Use 'try_add' to tolerate overflow and return NULL instead.");
    }

    @Test
    void malformedCast() {
        SparkErrorClasses e = SparkErrorClasses.of(SparkErrors.castInvalidInput("a\"b", DataType.UTF8, DataType.INT32).getMessage())
                .orElseThrow();
        assertThat(e.errorClass()).isEqualTo("CAST_INVALID_INPUT");
        assertThat(e.parameters()).containsEntry("expression", "'a\"b'").containsEntry("sourceType", "\"STRING\"")
                .containsEntry("targetType", "\"INT\"");
        assertThat(e.parametersJson()).contains("\"expression\":\"'a\\\"b'\"");
        assertThat(SparkErrorClasses.of("unknown column 'x'")).isEmpty();
    }
}
