package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Expr;

/**
 * The fallback for an expression the binder has no physical form for (yet): the logical expression,
 * evaluated as it always was (columns by name). Every expression therefore keeps working; the
 * common shapes never come here ({@link ExprBinder}). {@code type} is null when the expression
 * could not be typed against the input at binding: it then fails (or not) as it did before, when evaluated.
 */
public record LogicalExprAdapter(Expr expr, DataType type) implements PhysicalExpr {
    public LogicalExprAdapter {
        requireNonNull(expr, "expr is null");
    }

    @Override
    public Col evaluate(Batch batch) {
        return expr.evaluate(batch);
    }

    @Override
    public String toString() {
        return "logical(" + expr + ")";
    }
}
