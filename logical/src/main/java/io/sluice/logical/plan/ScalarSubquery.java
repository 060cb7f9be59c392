package io.sluice.logical.plan;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import java.util.List;

/** {@code (subquery)} as a value: the one column of the subquery's at most one row, NULL if none. */
public record ScalarSubquery(LogicalPlan subquery, long outerScope) implements SubqueryExpr {
    public ScalarSubquery {
        requireNonNull(subquery, "subquery is null");
        if (subquery.schema().size() != 1) {
            throw new SluiceException("a scalar subquery must return one column, not "
                    + subquery.schema().size() + ": " + subquery.schema());
        }
    }

    @Override
    public DataType type(Schema input) {
        return subquery.schema().field(0).type();
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
        return new ScalarSubquery(plan, outerScope);
    }

    @Override
    public String toString() {
        return "(scalar subquery)";
    }
}
