package io.sluice.operators.filter;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.ArithmeticMode;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.ScalarFunction;
import io.sluice.logical.expr.Substring;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which conjuncts a filter runs last, over only the rows still selected: those whose evaluation may fail on a row. */
class FallibleExprsTest {
    private static final Column A = new Column("a");
    private static final Column B = new Column("b");
    private static final Column S = new Column("s");

    @Test
    void arithmeticCastsAndOtherFunctionsMayFailComparisonsAndStringFunctionsDoNot() {
        assertThat(FallibleExprs.mayFail(new Binary(BinaryOp.NOT_EQ, B, Literal.of(0L)))).isFalse();
        assertThat(FallibleExprs.mayFail(new Binary(BinaryOp.EQ, new Substring(S, 1, 2L), Literal.of("13")))).isFalse();
        assertThat(FallibleExprs.mayFail(new Binary(BinaryOp.EQ,
                new ScalarFunction(ScalarFunction.Function.UPPER, List.of(S)), Literal.of("X")))).isFalse();
        assertThat(FallibleExprs.mayFail(new Binary(BinaryOp.GT,
                new Binary(BinaryOp.DIVIDE, A, B, ArithmeticMode.TRY), Literal.of(1L)))).isFalse();

        assertThat(FallibleExprs.mayFail(new Binary(BinaryOp.GT,
                new Binary(BinaryOp.DIVIDE, A, B, ArithmeticMode.ANSI), Literal.of(1L)))).isTrue();
        assertThat(FallibleExprs.mayFail(new Binary(BinaryOp.GT,
                new Cast(S, DataType.INT32, ArithmeticMode.STRICT), Literal.of(5L)))).isTrue();
        assertThat(FallibleExprs.mayFail(new Binary(BinaryOp.GT,
                new ScalarFunction(ScalarFunction.Function.ABS, List.of(A)), Literal.of(5L)))).isTrue();
        // a part that may fail under parts that do not
        assertThat(FallibleExprs.mayFail(new Binary(BinaryOp.OR, new Binary(BinaryOp.NOT_EQ, B, Literal.of(0L)),
                new Binary(BinaryOp.EQ, new Binary(BinaryOp.MULTIPLY, A, B, ArithmeticMode.STRICT), Literal.of(4L))))).isTrue();
    }
}
