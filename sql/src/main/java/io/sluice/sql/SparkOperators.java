package io.sluice.sql;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Case;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.ScalarFunction;
import io.sluice.logical.expr.Unary;
import java.util.List;

/** Spark SQL's operators that other dialects lack, as the expressions they mean. */
final class SparkOperators {
    private SparkOperators() {
    }

    /** {@code x} truncated toward zero: its ceiling below zero, else its floor. */
    static Expr towardZero(Expr x) {
        return new Case(List.of(new Binary(BinaryOp.LT, x, Literal.of(0L))),
                List.of(new ScalarFunction(ScalarFunction.Function.CEIL, List.of(x))),
                new ScalarFunction(ScalarFunction.Function.FLOOR, List.of(x)));
    }

    /** Spark's {@code a DIV b}: the quotient truncated toward zero, a BIGINT; NULL when {@code b} is 0. */
    static Expr integerDivide(Expr a, Expr b) {
        return new Cast(towardZero(new Binary(BinaryOp.DIVIDE, a, b)), DataType.INT64);
    }

    /** {@code a <=> b} ({@code IS NOT DISTINCT FROM}): equal, or both NULL; never NULL itself. */
    static Expr nullSafeEquals(Expr a, Expr b) {
        return new Case(List.of(new Unary(Unary.Op.IS_NULL, a), new Unary(Unary.Op.IS_NULL, b)),
                List.of(new Unary(Unary.Op.IS_NULL, b), Literal.of(false)), new Binary(BinaryOp.EQ, a, b));
    }
}
