package io.sluice.logical.plan;

import io.sluice.common.SluiceException;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.OuterColumn;
import io.sluice.logical.expr.Unevaluable;
import java.util.ArrayList;
import java.util.List;

/**
 * An expression holding a nested query plan: {@link Exists}, {@link InSubquery},
 * {@link QuantifiedComparison} or {@link ScalarSubquery}. The nested plan is not one of {@link #children()}: expression traversals
 * ({@link Exprs#columns}, {@link Exprs#transformUp}) do not enter it, because its columns are not
 * columns of the enclosing node's input. {@link OuterColumn}s directly in the nested plan (not in
 * plans nested deeper) refer to the input of the node that holds this expression.
 *
 * <p>These expressions are not evaluable: the decorrelation rules of the logical optimizer turn
 * them into joins. One that reaches execution fails with a clear error.
 */
public interface SubqueryExpr extends Unevaluable {
    LogicalPlan subquery();

    /**
     * The scope of the query this expression is in: {@link OuterColumn}s of that scope, anywhere
     * in the subquery, read the input of the node holding this expression.
     */
    long outerScope();

    /** A copy holding {@code plan} instead of {@link #subquery()}. */
    SubqueryExpr withSubquery(LogicalPlan plan);

    @Override
    default RuntimeException notEvaluable() {
        return notDecorrelated(this);
    }

    static SluiceException notDecorrelated(Expr e) {
        return new SluiceException("unsupported subquery: " + e + " could not be rewritten as a join"
                + " (not supported: a subquery in an outer join's ON condition reading both sides of the join)");
    }

    /**
     * The subquery expressions in {@code expr}, outermost first, left to right; plans nested in them
     * are not searched (their subqueries belong to them).
     */
    static List<SubqueryExpr> in(Expr expr) {
        List<SubqueryExpr> out = new ArrayList<>();
        collectSubqueries(expr, out);
        return out;
    }

    private static void collectSubqueries(Expr expr, List<SubqueryExpr> out) {
        if (expr instanceof SubqueryExpr s) {
            out.add(s);
        }
        for (Expr child : expr.children()) {
            collectSubqueries(child, out);
        }
    }
}
