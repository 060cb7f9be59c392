package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Unevaluable;

/**
 * An expression a planner should have rewritten away (an aggregate outside an aggregation, a
 * subquery not decorrelated, ...): it binds, so a plan holding one still builds, and its evaluation
 * fails with the expression's own error ({@link Unevaluable#notEvaluable}).
 */
public record UnevaluableExpr(Unevaluable source, DataType type) implements PhysicalExpr {
    public UnevaluableExpr {
        requireNonNull(source, "source is null");
    }

    @Override
    public Col evaluate(Batch batch) {
        throw source.notEvaluable();
    }

    @Override
    public String toString() {
        return "unevaluable(" + source + ")";
    }
}
