package io.sluice.logical.plan;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import java.util.List;

/** {@code [NOT] EXISTS (subquery)}: whether the subquery yields a row; never NULL. */
public record Exists(LogicalPlan subquery, boolean negated, long outerScope) implements SubqueryExpr {
    public Exists {
        requireNonNull(subquery, "subquery is null");
    }

    @Override
    public DataType type(Schema input) {
        return DataType.BOOL;
    }

    @Override
    public List<Expr> children() {
        return List.of();
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return this;
    }

    @Override
    public SubqueryExpr withSubquery(LogicalPlan plan) {
        return new Exists(plan, negated, outerScope);
    }

    /** The negation: NOT EXISTS for EXISTS and back. */
    public Exists negate() {
        return new Exists(subquery, !negated, outerScope);
    }

    @Override
    public String toString() {
        return (negated ? "NOT EXISTS" : "EXISTS") + " (subquery)";
    }
}
