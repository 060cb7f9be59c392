package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Unary;

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
        return Unary.apply(op, input.evaluate(batch), source::toString);
    }

    @Override
    public String toString() {
        return op + "(" + input + ")";
    }
}
