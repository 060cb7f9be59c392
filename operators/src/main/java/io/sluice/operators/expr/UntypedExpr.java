package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Unevaluable;

/**
 * An expression that does not type against the schema it was bound to. Binding does not fail, so
 * an operator that never sees a batch does not either; each batch binds it to its own schema and
 * evaluates it, failing there with the typing error (or, for one holding an {@link Unevaluable},
 * with that one's error, met first as evaluation would meet it). {@link #type} is null.
 */
public record UntypedExpr(Expr source) implements PhysicalExpr {
    public UntypedExpr {
        requireNonNull(source, "source is null");
    }

    @Override
    public DataType type() {
        return null;
    }

    @Override
    public Col evaluate(Batch batch) {
        Unevaluable unevaluable = firstUnevaluable(source);
        if (unevaluable != null) {
            throw unevaluable.notEvaluable();
        }
        source.type(batch.schema()); // the typing error, if the batch's schema does not type it either
        return ExprBinder.bind(source, batch.schema()).evaluate(batch);
    }

    private static Unevaluable firstUnevaluable(Expr expr) {
        if (expr instanceof Unevaluable u) {
            return u;
        }
        for (Expr child : expr.children()) {
            Unevaluable found = firstUnevaluable(child);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return "untyped(" + source + ")";
    }
}
