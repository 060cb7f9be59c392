package io.sluice.logical.plan;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TypeRules;
import io.sluice.logical.expr.Expr;
import java.util.List;

/**
 * {@code value [NOT] IN (subquery)} over a one-column subquery, with SQL's three-valued logic: IN is
 * true on a match, else NULL if the value or some subquery value is NULL, else false; NOT IN is its
 * negation (so one NULL in the subquery makes NOT IN never true).
 */
public record InSubquery(Expr value, LogicalPlan subquery, boolean negated, long outerScope) implements SubqueryExpr {
    public InSubquery {
        requireNonNull(value, "value is null");
        requireNonNull(subquery, "subquery is null");
        if (subquery.schema().size() != 1) {
            throw new SluiceException("a subquery after IN must return one column, not "
                    + subquery.schema().size() + ": " + subquery.schema());
        }
    }

    @Override
    public DataType type(Schema input) {
        DataType left = value.type(input);
        DataType right = subquery.schema().field(0).type();
        try {
            TypeRules.checkComparable(BinaryOp.EQ, left, right);
        } catch (SluiceException e) {
            throw new SluiceException(value + " cannot be compared with the IN subquery's column: " + e.getMessage(), e);
        }
        return DataType.BOOL;
    }

    @Override
    public List<Expr> children() {
        return List.of(value);
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new InSubquery(children.get(0), subquery, negated, outerScope);
    }

    @Override
    public SubqueryExpr withSubquery(LogicalPlan plan) {
        return new InSubquery(value, plan, negated, outerScope);
    }

    public InSubquery negate() {
        return new InSubquery(value, subquery, !negated, outerScope);
    }

    @Override
    public String toString() {
        return value + (negated ? " NOT IN" : " IN") + " (subquery)";
    }
}
