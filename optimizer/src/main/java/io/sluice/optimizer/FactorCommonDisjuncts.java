package io.sluice.optimizer;

import io.sluice.common.types.BinaryOp;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.LogicalPlan;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Pulls out of an OR the conjuncts that every branch has: {@code (a AND b) OR (a AND c)} becomes
 * {@code a AND (b OR c)}, and {@code a OR (a AND b)} becomes {@code a}. TPC-H Q19 writes its join key
 * {@code p_partkey = l_partkey} in each of three branches; once it stands alone,
 * {@link ExtractEquijoinPredicate} makes it a join key and the cross product becomes an equijoin.
 *
 * <p>Applies to filter predicates and join residual filters, to each top-level conjunct that is an
 * OR. Guarantees: the predicate's value is the same for every row, NULLs included (AND and OR
 * distribute over each other and absorb in SQL's three-valued logic as in two-valued logic);
 * branches keep their order, and each branch its remaining conjuncts' order; a plan without such an
 * OR comes back as the same instance.
 */
public final class FactorCommonDisjuncts implements NodeRule {
    @Override
    public String name() {
        return "FactorCommonDisjuncts";
    }

    @Override
    public ApplyOrder applyOrder() {
        return ApplyOrder.BOTTOM_UP;
    }

    @Override
    public LogicalPlan applyToNode(LogicalPlan node) {
        if (node instanceof Filter f) {
            Expr p = factor(f.predicate());
            return p == f.predicate() ? f : new Filter(f.input(), p);
        }
        if (node instanceof Join j && j.filter() != null) {
            Expr p = factor(j.filter());
            return p == j.filter() ? j : j.withCondition(j.leftKeys(), j.rightKeys(), p);
        }
        return node;
    }

    /** {@code predicate} with each OR conjunct factored; the same instance when none changes. */
    static Expr factor(Expr predicate) {
        List<Expr> out = new ArrayList<>();
        boolean changed = false;
        for (Expr conjunct : Exprs.conjuncts(predicate)) {
            Expr factored = factorOr(conjunct);
            changed |= factored != conjunct;
            out.add(factored);
        }
        return changed ? Exprs.and(out) : predicate;
    }

    private static Expr factorOr(Expr e) {
        if (!(e instanceof Binary b && b.op() == BinaryOp.OR)) {
            return e;
        }
        List<List<Expr>> branches = new ArrayList<>();
        for (Expr disjunct : disjuncts(e)) {
            branches.add(Exprs.conjuncts(disjunct));
        }
        Set<Expr> common = new LinkedHashSet<>(branches.get(0));
        for (List<Expr> branch : branches.subList(1, branches.size())) {
            common.retainAll(branch);
        }
        if (common.isEmpty()) {
            return e;
        }
        List<Expr> rest = new ArrayList<>();
        for (List<Expr> branch : branches) {
            List<Expr> remaining = new ArrayList<>(branch);
            remaining.removeAll(common);
            if (remaining.isEmpty()) {
                return Exprs.and(List.copyOf(common)); // common OR (common AND x) is common
            }
            rest.add(Exprs.and(remaining));
        }
        List<Expr> out = new ArrayList<>(common);
        out.add(or(rest));
        return Exprs.and(out);
    }

    /** The branches of an OR (nested ORs flattened); {@code e} alone when it is not one. */
    static List<Expr> disjuncts(Expr e) {
        List<Expr> out = new ArrayList<>();
        collectDisjuncts(e, out);
        return out;
    }

    private static void collectDisjuncts(Expr e, List<Expr> out) {
        if (e instanceof Binary b && b.op() == BinaryOp.OR) {
            collectDisjuncts(b.left(), out);
            collectDisjuncts(b.right(), out);
        } else {
            out.add(e);
        }
    }

    /** The OR of {@code parts}, left to right. */
    static Expr or(List<Expr> parts) {
        Expr out = parts.get(0);
        for (Expr p : parts.subList(1, parts.size())) {
            out = new Binary(BinaryOp.OR, out, p);
        }
        return out;
    }
}
