package io.sluice.logical.expr;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.ArithmeticMode;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which expressions may fail on a row (a filter runs those conjuncts last, over only the rows still selected). */
class ExprMayFailTest {
    private static final Column A = new Column("a");
    private static final Column B = new Column("b");
    private static final Column S = new Column("s");

    @Test
    void arithmeticCastsAndOtherFunctionsMayFailComparisonsAndStringFunctionsDoNot() {
        assertThat(new Binary(BinaryOp.NOT_EQ, B, Literal.of(0L)).mayFail()).isFalse();
        assertThat(new Binary(BinaryOp.EQ, new Substring(S, 1, 2L), Literal.of("13")).mayFail()).isFalse();
        assertThat(new Binary(BinaryOp.EQ,
                new ScalarFunction(ScalarFunction.Function.UPPER, List.of(S)), Literal.of("X")).mayFail()).isFalse();
        assertThat(new Binary(BinaryOp.GT,
                new Binary(BinaryOp.DIVIDE, A, B, ArithmeticMode.TRY), Literal.of(1L)).mayFail()).isFalse();
        assertThat(new Cast(S, DataType.INT32, ArithmeticMode.TRY).mayFail()).isFalse();

        assertThat(new Binary(BinaryOp.GT,
                new Binary(BinaryOp.DIVIDE, A, B, ArithmeticMode.ANSI), Literal.of(1L)).mayFail()).isTrue();
        assertThat(new Binary(BinaryOp.GT,
                new Cast(S, DataType.INT32, ArithmeticMode.STRICT), Literal.of(5L)).mayFail()).isTrue();
        assertThat(new Binary(BinaryOp.GT,
                new ScalarFunction(ScalarFunction.Function.ABS, List.of(A)), Literal.of(5L)).mayFail()).isTrue();
        // a part that may fail under parts that do not, a CASE's branch among them
        assertThat(new Case(List.of(new Binary(BinaryOp.NOT_EQ, B, Literal.of(0L))),
                List.of(new Binary(BinaryOp.DIVIDE, A, B, ArithmeticMode.ANSI)), Literal.of(0L)).mayFail()).isTrue();
        assertThat(new Binary(BinaryOp.OR, new Binary(BinaryOp.NOT_EQ, B, Literal.of(0L)),
                new Binary(BinaryOp.EQ, new Binary(BinaryOp.MULTIPLY, A, B, ArithmeticMode.STRICT), Literal.of(4L))).mayFail()).isTrue();
    }
}
