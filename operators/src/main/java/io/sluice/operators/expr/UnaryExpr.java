package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.Kernels;
import io.sluice.logical.expr.Unary;
import java.util.function.Supplier;

/** NOT, unary minus, IS [NOT] NULL on a bound input; {@code source} names the expression in an overflow error. */
public record UnaryExpr(Unary.Op op, PhysicalExpr input, DataType type, Unary source) implements PhysicalExpr {
    public UnaryExpr {
        requireNonNull(op, "op is null");
        requireNonNull(input, "input is null");
        requireNonNull(type, "type is null");
        requireNonNull(source, "source is null");
    }

    @Override
    public Col evaluate(Batch batch) {
        return apply(op, input.evaluate(batch), source::toString);
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
