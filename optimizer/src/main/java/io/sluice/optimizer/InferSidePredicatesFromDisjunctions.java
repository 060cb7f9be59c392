package io.sluice.optimizer;

import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.LogicalPlan;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * Derives, from an OR over both sides of a join, a predicate on one side that every branch implies:
 * for {@code (a1 AND b1) OR (a2 AND b2)}, with the a's reading only the left side's columns and the
 * b's only the right's, the left side gets {@code a1 OR a2} and the right {@code b1 OR b2}; a side
 * gets nothing when some branch says nothing about it alone. The OR stays where it is (the derived
 * predicates are implied by it, not equal to it), so the answer is unchanged; the derived ones let
 * {@link PushDownFilter} take the sides' rows down to the scans before the join. TPC-H Q19 (each
 * branch's brand, containers and size of {@code part}) and Q7 (the two nations of each side) are
 * the shapes, as in Spark's {@code PushExtraPredicateThroughJoin}.
 *
 * <p>Only into a side the join lets filters into ({@link PushDownFilter}'s rules: not a side whose
 * rows an outer join preserves). Idempotent: a side whose filters (anywhere below it, compared with
 * column qualifiers dropped, since pushing through an alias drops them) already hold every conjunct
 * of the derived predicate gets nothing. Comparing without qualifiers may match a different
 * column of the same name below; that only leaves the side unfiltered, never changes an answer.
 */
public final class InferSidePredicatesFromDisjunctions implements NodeRule {
    @Override
    public String name() {
        return "InferSidePredicatesFromDisjunctions";
    }

    @Override
    public ApplyOrder applyOrder() {
        return ApplyOrder.TOP_DOWN;
    }

    @Override
    public LogicalPlan applyToNode(LogicalPlan node) {
        if (node instanceof Filter f && f.input() instanceof Join j) {
            Join derived = withDerived(j, Exprs.conjuncts(f.predicate()), j.schema(),
                    PushDownFilter.aboveIntoLeft(j.type()), PushDownFilter.aboveIntoRight(j.type()));
            return derived == j ? f : new Filter(derived, f.predicate());
        }
        if (node instanceof Join j && j.filter() != null) {
            return withDerived(j, Exprs.conjuncts(j.filter()), j.combinedSchema(),
                    PushDownFilter.residualIntoLeft(j.type()), PushDownFilter.residualIntoRight(j.type()));
        }
        return node;
    }

    /** The join with each side under the predicates derived for it, or itself when none are new. */
    private static Join withDerived(Join j, List<Expr> conjuncts, Schema over, boolean intoLeft, boolean intoRight) {
        int leftSize = j.left().schema().size();
        List<Expr> left = new ArrayList<>();
        List<Expr> right = new ArrayList<>();
        for (Expr conjunct : conjuncts) {
            List<Expr> branches = FactorCommonDisjuncts.disjuncts(conjunct);
            if (branches.size() < 2) {
                continue;
            }
            if (intoLeft) {
                addIfNew(left, derive(branches, over, j.left(), 0, i -> i < leftSize), j.left());
            }
            if (intoRight) {
                addIfNew(right, derive(branches, over, j.right(), leftSize, i -> i >= leftSize), j.right());
            }
        }
        if (left.isEmpty() && right.isEmpty()) {
            return j;
        }
        LogicalPlan newLeft = left.isEmpty() ? j.left() : new Filter(j.left(), Exprs.and(left));
        LogicalPlan newRight = right.isEmpty() ? j.right() : new Filter(j.right(), Exprs.and(right));
        return (Join) j.withNewChildren(List.of(newLeft, newRight));
    }

    /**
     * The OR over the branches of each branch's conjuncts that read only the side's columns
     * ({@code onSide} tells a column position of {@code over}), re-expressed over the side; null
     * when some branch has none, or every conjunct of the OR reads the side only (the OR itself
     * then moves there whole).
     */
    private static Expr derive(List<Expr> branches, Schema over, LogicalPlan side, int offset, IntPredicate onSide) {
        List<Expr> parts = new ArrayList<>(branches.size());
        boolean otherSide = false;
        for (Expr branch : branches) {
            List<Expr> own = new ArrayList<>();
            for (Expr c : Exprs.conjuncts(branch)) {
                Set<Integer> columns = PlanRewrites.columnIndexes(c, over);
                if (!columns.isEmpty() && columns.stream().allMatch(onSide::test)) {
                    own.add(PlanRewrites.rebase(c, over, side.schema(), offset));
                } else {
                    otherSide = true;
                }
            }
            if (own.isEmpty()) {
                return null;
            }
            parts.add(Exprs.and(own));
        }
        return otherSide ? FactorCommonDisjuncts.factor(FactorCommonDisjuncts.or(parts)) : null;
    }

    private static void addIfNew(List<Expr> out, Expr derived, LogicalPlan side) {
        if (derived == null) {
            return;
        }
        Set<Expr> present = new HashSet<>();
        collectFilterConjuncts(side, present);
        for (Expr c : Exprs.conjuncts(derived)) {
            if (!present.contains(unqualified(c)) && !out.contains(c)) {
                out.add(c);
            }
        }
    }

    /** Every conjunct of every filter and join condition in {@code plan}, without column qualifiers. */
    private static void collectFilterConjuncts(LogicalPlan plan, Set<Expr> out) {
        PlanRewrites.anyNode(plan, false, node -> {
            if (node instanceof Filter f) {
                Exprs.conjuncts(f.predicate()).forEach(c -> out.add(unqualified(c)));
            } else if (node instanceof Join j && j.filter() != null) {
                Exprs.conjuncts(j.filter()).forEach(c -> out.add(unqualified(c)));
            }
            return false;
        });
    }

    private static Expr unqualified(Expr e) {
        return PlanRewrites.replaceColumns(e, c -> {
            int dot = c.column().lastIndexOf('.');
            return dot < 0 ? c : new Column(c.column().substring(dot + 1));
        });
    }
}
