package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.ScalarKernels;
import io.sluice.logical.expr.Literal;

/**
 * A constant as a one-row column. Operators on a column and a constant use it as a scalar
 * ({@link io.sluice.kernels.ScalarKernels}); only a constant evaluated on its own (a projected
 * constant) is expanded to the batch's length.
 */
public record ScalarLiteral(Literal literal, Col scalar) implements PhysicalExpr {
    public ScalarLiteral {
        requireNonNull(literal, "literal is null");
        requireNonNull(scalar, "scalar is null");
    }

    public static ScalarLiteral of(Literal literal) {
        return new ScalarLiteral(literal, literal.scalar());
    }

    @Override
    public DataType type() {
        return literal.type();
    }

    @Override
    public Col evaluate(Batch batch) {
        return ScalarKernels.expand(scalar, batch.rowCount());
    }

    @Override
    public String toString() {
        return literal.toString();
    }
}
