package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.ArithmeticMode;
import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.Kernels;
import io.sluice.kernels.NumericOverflowException;
import io.sluice.kernels.SparkErrors;
import io.sluice.kernels.TolerantArithmetic;
import io.sluice.logical.expr.Unary;
import java.util.function.Supplier;

/**
 * NOT, unary minus, IS [NOT] NULL on a bound input; {@code source} names the expression in an overflow
 * error, and its mode says what minus does on overflow (an INT stays an INT, as in Spark).
 */
public record UnaryExpr(Unary.Op op, PhysicalExpr input, DataType type, Unary source) implements PhysicalExpr {
    public UnaryExpr {
        requireNonNull(op, "op is null");
        requireNonNull(input, "input is null");
        requireNonNull(type, "type is null");
        requireNonNull(source, "source is null");
    }

    @Override
    public Col evaluate(Batch batch) {
        Col c = input.evaluate(batch);
        if (op != Unary.Op.NEGATE || source.mode() == ArithmeticMode.STRICT) {
            return apply(op, c, source::toString);
        }
        try {
            Col out = apply(op, c, source::toString);
            if (c.type.kind() == DataType.Kind.INT32 && source.mode() == ArithmeticMode.ANSI
                    && TolerantArithmetic.firstPastInt(out) >= 0) {
                throw new NumericOverflowException(source.toString());
            }
            return c.type.kind() == DataType.Kind.INT32 ? TolerantArithmetic.narrowToInt(out, source.mode() == ArithmeticMode.LEGACY) : out;
        } catch (NumericOverflowException e) {
            if (source.mode() == ArithmeticMode.ANSI || !TolerantArithmetic.handles(c.type)) {
                throw SparkErrors.overflow(source.toString(), c.type, null);
            }
            return TolerantArithmetic.negate(c, source.mode() == ArithmeticMode.LEGACY);
        }
    }

    /** {@code op} on a column; {@code expression} names it in an overflow error. */
    static Col apply(Unary.Op op, Col c, Supplier<String> expression) {
        return switch (op) {
            case NOT -> c.type.kind() == DataType.Kind.NULL ? Col.allNull(DataType.BOOL, c.length) : Kernels.not(c);
            case NEGATE -> c.type.kind() == DataType.Kind.NULL ? c : Kernels.negate(c, expression);
            case IS_NULL -> Kernels.isNull(c, false);
            case IS_NOT_NULL -> Kernels.isNull(c, true);
        };
    }

    @Override
    public String toString() {
        return op + "(" + input + ")";
    }
}
