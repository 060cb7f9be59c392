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
 * {@code value op ANY (subquery)} or {@code value op ALL (subquery)} over a one-column subquery, in
 * SQL's three-valued logic. ANY is TRUE when {@code value op y} is TRUE for some subquery value
 * {@code y}, else NULL when it is NULL for some, else FALSE (so FALSE over no rows); ALL is TRUE when
 * it is TRUE for every value (so over no rows), else FALSE when it is FALSE for some, else NULL.
 * ({@code = ANY} is {@code IN}; {@code <> ALL} is {@code NOT IN}.)
 */
public record QuantifiedComparison(Expr value, BinaryOp op, LogicalPlan subquery, boolean all, long outerScope)
        implements SubqueryExpr {
    public QuantifiedComparison {
        requireNonNull(value, "value is null");
        requireNonNull(op, "op is null");
        requireNonNull(subquery, "subquery is null");
        if (op.kind() != BinaryOp.Kind.COMPARISON) {
            throw new IllegalArgumentException("ANY / ALL needs a comparison, not " + op);
        }
        if (subquery.schema().size() != 1) {
            throw new SluiceException("a subquery after " + op.symbol() + (all ? " ALL" : " ANY")
                    + " must return one column, not " + subquery.schema().size() + ": " + subquery.schema());
        }
    }

    @Override
    public DataType type(Schema input) {
        DataType left = value.type(input);
        DataType right = subquery.schema().field(0).type();
        try {
            TypeRules.checkComparable(op, left, right);
        } catch (SluiceException e) {
            throw new SluiceException(value + " cannot be compared with the subquery's column: " + e.getMessage(), e);
        }
        return DataType.BOOL;
    }

    @Override
    public List<Expr> children() {
        return List.of(value);
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new QuantifiedComparison(children.get(0), op, subquery, all, outerScope);
    }

    @Override
    public SubqueryExpr withSubquery(LogicalPlan plan) {
        return new QuantifiedComparison(value, op, plan, all, outerScope);
    }

    @Override
    public String toString() {
        return value + " " + op.symbol() + (all ? " ALL" : " ANY") + " (subquery)";
    }
}
