package io.sluice.sql;

import io.sluice.common.types.BinaryOp;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Case;
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

    /** {@code a <=> b} ({@code IS NOT DISTINCT FROM}): equal, or both NULL; never NULL itself. */
    static Expr nullSafeEquals(Expr a, Expr b) {
        return new Case(List.of(new Unary(Unary.Op.IS_NULL, a), new Unary(Unary.Op.IS_NULL, b)),
                List.of(new Unary(Unary.Op.IS_NULL, b), Literal.of(false)), new Binary(BinaryOp.EQ, a, b));
    }
}
