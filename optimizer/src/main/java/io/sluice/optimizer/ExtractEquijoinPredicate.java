package io.sluice.optimizer;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.JoinType;
import io.sluice.logical.plan.LogicalPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Turns equalities between the two sides of a join into join keys, so that the join can hash or
 * sort-merge on them instead of comparing every pair of rows (a comma join with its condition in
 * WHERE is a cross join until this rule runs).
 *
 * <ul>
 *   <li>a filter directly over an inner join (keyed or a cross join): each conjunct {@code a = b}
 *       where one operand reads only left columns and the other only right columns (both reading at
 *       least one) becomes a key pair, and leaves the filter;
 *   <li>the join's own residual filter, for any join type but the null-aware anti join (whose keys
 *       treat NULLs specially): such conjuncts become key pairs too, since keys and residual are
 *       both part of the match condition.
 * </ul>
 *
 * <p>Guarantees: the rows are the same (a NULL key matches nothing, exactly as {@code a = b} is not
 * true for a NULL operand); keys are rebased to the exact column names of their side; a plan without
 * such equalities comes back as the same instance.
 */
public final class ExtractEquijoinPredicate implements NodeRule {
    @Override
    public String name() {
        return "ExtractEquijoinPredicate";
    }

    /** Bottom-up: a join's residual becomes keys before the filter above it is looked at. */
    @Override
    public ApplyOrder applyOrder() {
        return ApplyOrder.BOTTOM_UP;
    }

    @Override
    public LogicalPlan applyToNode(LogicalPlan node) {
        if (node instanceof Filter f && f.input() instanceof Join j && j.type() == JoinType.INNER) {
            return fromFilter(f, j);
        }
        if (node instanceof Join j && j.filter() != null && j.type() != JoinType.LEFT_ANTI_NULL_AWARE) {
            return fromResidual(j);
        }
        return node;
    }

    private static LogicalPlan fromFilter(Filter f, Join j) {
        Extracted e = extract(Exprs.conjuncts(f.predicate()), j, j.schema());
        if (e.leftKeys.isEmpty()) {
            return f;
        }
        Join keyed = j.withCondition(concat(j.leftKeys(), e.leftKeys), concat(j.rightKeys(), e.rightKeys), j.filter());
        return e.rest.isEmpty() ? keyed : new Filter(keyed, Exprs.and(e.rest));
    }

    private static LogicalPlan fromResidual(Join j) {
        Extracted e = extract(Exprs.conjuncts(j.filter()), j, j.combinedSchema());
        if (e.leftKeys.isEmpty()) {
            return j;
        }
        return j.withCondition(concat(j.leftKeys(), e.leftKeys), concat(j.rightKeys(), e.rightKeys),
                e.rest.isEmpty() ? null : Exprs.and(e.rest));
    }

    private record Extracted(List<Expr> leftKeys, List<Expr> rightKeys, List<Expr> rest) {
    }

    private static Extracted extract(List<Expr> conjuncts, Join j, Schema over) {
        Schema left = j.left().schema();
        Schema right = j.right().schema();
        int leftSize = left.size();
        Extracted out = new Extracted(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (Expr c : conjuncts) {
            if (c instanceof Binary b && b.op() == BinaryOp.EQ) {
                int l = side(b.left(), over, leftSize);
                int r = side(b.right(), over, leftSize);
                if (l == LEFT && r == RIGHT) {
                    out.leftKeys.add(PlanRewrites.rebase(b.left(), over, left, 0));
                    out.rightKeys.add(PlanRewrites.rebase(b.right(), over, right, leftSize));
                    continue;
                }
                if (l == RIGHT && r == LEFT) {
                    out.leftKeys.add(PlanRewrites.rebase(b.right(), over, left, 0));
                    out.rightKeys.add(PlanRewrites.rebase(b.left(), over, right, leftSize));
                    continue;
                }
            }
            out.rest.add(c);
        }
        return out;
    }

    private static final int NEITHER = 0;
    private static final int LEFT = 1;
    private static final int RIGHT = 2;

    /** Which side an operand reads: only left columns, only right columns, or neither or both. */
    private static int side(Expr e, Schema over, int leftSize) {
        Set<Integer> columns = PlanRewrites.columnIndexes(e, over);
        if (columns.isEmpty()) {
            return NEITHER;
        }
        if (columns.stream().allMatch(i -> i < leftSize)) {
            return LEFT;
        }
        if (columns.stream().allMatch(i -> i >= leftSize)) {
            return RIGHT;
        }
        return NEITHER;
    }

    private static List<Expr> concat(List<Expr> a, List<Expr> b) {
        List<Expr> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
