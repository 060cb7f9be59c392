package io.sluice.optimizer.logical;

import io.sluice.optimizer.logical.Decorrelation.Pulled;
import io.sluice.optimizer.logical.Decorrelation.RightSide;
import io.sluice.plan.expr.Column;
import io.sluice.plan.expr.Exists;
import io.sluice.plan.expr.Expr;
import io.sluice.plan.expr.Exprs;
import io.sluice.plan.expr.InSubquery;
import io.sluice.plan.expr.SubqueryExpr;
import io.sluice.plan.logical.Filter;
import io.sluice.plan.logical.Join;
import io.sluice.plan.logical.JoinType;
import io.sluice.plan.logical.LogicalPlan;
import io.sluice.plan.logical.Projection;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns each conjunct {@code [NOT] EXISTS (sub)} or {@code x [NOT] IN (sub)} of a filter into a join
 * of the filter's input with the subquery: EXISTS and IN become {@code LEFT_SEMI}, NOT EXISTS
 * {@code LEFT_ANTI} and NOT IN {@code LEFT_ANTI_NULL_AWARE} (which keeps SQL's NULL semantics: a
 * NULL in the subquery rejects every row, a NULL x survives only an empty subquery). Semi and anti
 * joins output the left columns only, so the filter's output keeps its columns.
 *
 * <p>Correlation: the correlated conjuncts of the filters at the top of the subquery's body (under
 * its select-list projection) are pulled up into the join: {@code inner = outer} equalities become
 * key pairs, other predicates the join's residual filter. Of an IN, {@code x} and the subquery's
 * column are the first key pair. The subquery side is a projection of just the columns the join
 * needs, named {@code __sqN.c} so they cannot clash with the outer columns.
 *
 * <p>Left alone (and failing at execution with an "unsupported subquery" error): subqueries under OR
 * or NOT, correlated NOT IN (null-aware semantics per correlated group are not implemented), and
 * correlated subqueries whose outer references are anywhere but in the filters at the top of their
 * body (say under an aggregate, a limit or a join). Subqueries nested in subqueries are rewritten
 * first. Returns the same instance when nothing changes.
 */
public final class DecorrelateExistsAndIn implements LogicalRule {
    @Override
    public String name() {
        return "DecorrelateExistsAndIn";
    }

    @Override
    public LogicalPlan apply(LogicalPlan plan) {
        return PlanRewrites.transformUp(plan, node -> {
            LogicalPlan n = Decorrelation.rewriteNested(node, this::apply);
            return n instanceof Filter f ? rewrite(f) : n;
        });
    }

    private static LogicalPlan rewrite(Filter filter) {
        LogicalPlan input = filter.input();
        List<Expr> remaining = new ArrayList<>();
        boolean changed = false;
        for (Expr conjunct : Exprs.conjuncts(filter.predicate())) {
            Join join = conjunct instanceof Exists || conjunct instanceof InSubquery
                    ? toJoin(input, (SubqueryExpr) conjunct) : null;
            if (join == null) {
                remaining.add(conjunct);
            } else {
                input = join;
                changed = true;
            }
        }
        if (!changed) {
            return filter;
        }
        return remaining.isEmpty() ? input : new Filter(input, Exprs.and(remaining));
    }

    /** The join replacing {@code e} as a conjunct of a filter over {@code input}, or null if unsupported. */
    private static Join toJoin(LogicalPlan input, SubqueryExpr e) {
        boolean negated = e instanceof Exists x ? x.negated() : ((InSubquery) e).negated();
        InSubquery in = e instanceof InSubquery i ? i : null;
        RightSide right = new RightSide(Decorrelation.freshQualifier(input.schema()));
        List<Expr> leftKeys = new ArrayList<>();
        List<Expr> rightKeys = new ArrayList<>();
        LogicalPlan sub = e.subquery();
        if (!Decorrelation.isCorrelated(sub)) {
            JoinType type = in == null ? (negated ? JoinType.LEFT_ANTI : JoinType.LEFT_SEMI)
                    : (negated ? JoinType.LEFT_ANTI_NULL_AWARE : JoinType.LEFT_SEMI);
            if (in != null) {
                leftKeys.add(in.value());
                rightKeys.add(right.add(new Column(sub.schema().field(0).name())));
            } else {
                right.add(new Column(sub.schema().field(0).name())); // EXISTS needs rows, not columns
            }
            return leftKeys.isEmpty() ? Decorrelation.keyedCross(input, right.build(sub), type, null)
                    : new Join(input, right.build(sub), type, leftKeys, rightKeys, null);
        }
        if ((in != null && negated) || !(sub instanceof Projection select)) {
            return null;
        }
        Pulled pulled = Decorrelation.pullCorrelated(select.input());
        if (Decorrelation.isCorrelated(pulled.body())) {
            return null;
        }
        if (in != null) {
            Expr value = select.exprs().get(0);
            if (Exprs.containsOuterColumn(value)) {
                return null;
            }
            leftKeys.add(in.value());
            rightKeys.add(right.add(Exprs.unalias(value)));
        }
        List<Expr> residual = new ArrayList<>();
        for (Expr c : pulled.correlated()) {
            Expr[] key = Decorrelation.equiKey(c);
            if (key != null) {
                leftKeys.add(key[0]);
                rightKeys.add(right.add(key[1]));
            } else if (Exprs.subqueries(c).isEmpty()) {
                residual.add(right.rebaseResidual(c));
            } else {
                return null;
            }
        }
        if (rightKeys.isEmpty() && residual.isEmpty()) {
            return null;
        }
        if (rightKeys.isEmpty()) {
            right.add(new Column(pulled.body().schema().field(0).name())); // a projection needs a column
        }
        JoinType type = negated ? JoinType.LEFT_ANTI : JoinType.LEFT_SEMI;
        Expr filter = residual.isEmpty() ? null : Exprs.and(residual);
        if (leftKeys.isEmpty()) {
            return Decorrelation.keyedCross(input, right.build(pulled.body()), type, filter);
        }
        return new Join(input, right.build(pulled.body()), type, leftKeys, rightKeys,
                residual.isEmpty() ? null : Exprs.and(residual));
    }
}
