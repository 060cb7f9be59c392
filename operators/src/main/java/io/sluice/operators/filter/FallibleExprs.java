package io.sluice.operators.filter;

import io.sluice.common.types.ArithmeticMode;
import io.sluice.common.types.BinaryOp;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Case;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Like;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.RegexMatch;
import io.sluice.logical.expr.ScalarFunction;
import io.sluice.logical.expr.Substring;
import io.sluice.logical.expr.Unary;
import java.util.EnumSet;
import java.util.Set;

/**
 * Whether evaluating an expression may fail on some row's values: arithmetic (an overflow, a zero
 * divisor under Spark's ANSI mode), a cast (text that spells no value, a value out of range), any
 * function (a malformed argument). Conservative: only columns, constants, comparisons, AND, OR,
 * NOT, IS [NOT] NULL, LIKE, a regular expression match, CASE, substrings and the string functions
 * of {@link #TEXT} over such parts never fail, as do {@code try_} arithmetic and casts; everything
 * else may.
 */
final class FallibleExprs {
    /** String functions that give a value for every string (NULL for NULL). */
    private static final Set<ScalarFunction.Function> TEXT = EnumSet.of(ScalarFunction.Function.UPPER,
            ScalarFunction.Function.LOWER, ScalarFunction.Function.TRIM, ScalarFunction.Function.LTRIM,
            ScalarFunction.Function.RTRIM, ScalarFunction.Function.LENGTH, ScalarFunction.Function.CONCAT,
            ScalarFunction.Function.CONCAT_OPERATOR, ScalarFunction.Function.STRPOS, ScalarFunction.Function.REPLACE,
            ScalarFunction.Function.STARTS_WITH);

    private FallibleExprs() {
    }

    static boolean mayFail(Expr e) {
        if (e instanceof Column || e instanceof Literal) {
            return false;
        }
        if (e instanceof Binary b && b.op().kind() == BinaryOp.Kind.ARITHMETIC && b.mode() != ArithmeticMode.TRY
                || e instanceof Unary u && u.op() == Unary.Op.NEGATE && u.mode() != ArithmeticMode.TRY
                || e instanceof Cast c && c.mode() != ArithmeticMode.TRY) {
            return true;
        }
        if (e instanceof Binary || e instanceof Unary || e instanceof Cast || e instanceof Like
                || e instanceof RegexMatch || e instanceof Case || e instanceof Substring
                || e instanceof ScalarFunction f && TEXT.contains(f.function())) {
            return e.children().stream().anyMatch(FallibleExprs::mayFail);
        }
        return true;
    }
}
