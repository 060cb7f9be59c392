package io.sluice.optimizer;

import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.plan.Aggregate;
import io.sluice.logical.plan.EmptyRelation;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.Limit;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.Sort;
import io.sluice.logical.plan.SubqueryAlias;
import io.sluice.logical.plan.Union;
import java.util.ArrayList;
import java.util.List;

/**
 * Removes nodes that do nothing and cuts subtrees that produce nothing:
 *
 * <ul>
 *   <li>{@code Filter(true)}, a projection that passes its input's columns through unchanged (same
 *       names, same order), and {@code Limit} without offset or fetch bound are replaced by their
 *       input;
 *   <li>{@code Filter(false)}, {@code Filter(NULL)}, {@code Limit 0} and an inner join whose residual
 *       filter is false become an {@link EmptyRelation} of the node's schema;
 *   <li>emptiness propagates up through Filter, Projection, Sort, Limit, SubqueryAlias, an Aggregate
 *       with grouping keys, an inner or semi join with an empty side, a left, anti join with an
 *       empty left side (a right join with an empty right side), and a union all of whose inputs
 *       are empty. Empty union inputs are dropped.
 * </ul>
 *
 * <p>An aggregate without grouping keys is never replaced: over no rows it still outputs one row
 * ({@code count(*) = 0}). Guarantees: every replacement has the schema of the node it replaces
 * (names and types); a plan with nothing to remove comes back as the same instance.
 */
public final class EliminateTrivialNodes implements NodeRule {
    @Override
    public String name() {
        return "EliminateTrivialNodes";
    }

    /** Bottom-up: emptiness found below must propagate to the parents in the same walk. */
    @Override
    public ApplyOrder applyOrder() {
        return ApplyOrder.BOTTOM_UP;
    }

    @Override
    public LogicalPlan applyToNode(LogicalPlan plan) {
        if (plan instanceof Filter f) {
            if (isEmpty(f.input()) || isFalseOrNull(f.predicate())) {
                return empty(f);
            }
            return f.predicate() instanceof Literal l && Boolean.TRUE.equals(l.value()) ? f.input() : f;
        }
        if (plan instanceof Limit l) {
            if (l.fetch() == 0 || isEmpty(l.input())) {
                return empty(l);
            }
            return l.offset() == 0 && l.fetch() == Long.MAX_VALUE ? l.input() : l;
        }
        if (plan instanceof Projection p) {
            if (isEmpty(p.input())) {
                return empty(p);
            }
            return isIdentity(p) ? p.input() : p;
        }
        if (plan instanceof Sort || plan instanceof SubqueryAlias) {
            return isEmpty(plan.children().get(0)) ? empty(plan) : plan;
        }
        if (plan instanceof Aggregate a) {
            return !a.groupBy().isEmpty() && isEmpty(a.input()) ? empty(a) : a;
        }
        if (plan instanceof Join j) {
            return joinProducesNothing(j) ? empty(j) : j;
        }
        if (plan instanceof Union u) {
            return dropEmptyInputs(u);
        }
        return plan;
    }

    private static boolean joinProducesNothing(Join j) {
        boolean leftEmpty = isEmpty(j.left());
        boolean rightEmpty = isEmpty(j.right());
        return switch (j.type()) {
            case INNER -> leftEmpty || rightEmpty || (j.filter() != null && isFalseOrNull(j.filter()));
            case LEFT_SEMI -> leftEmpty || rightEmpty;
            case LEFT, LEFT_ANTI, LEFT_ANTI_NULL_AWARE, LEFT_MARK -> leftEmpty;
            case RIGHT -> rightEmpty;
            case FULL -> leftEmpty && rightEmpty;
        };
    }

    private static LogicalPlan dropEmptyInputs(Union u) {
        List<LogicalPlan> kept = new ArrayList<>();
        for (LogicalPlan input : u.inputs()) {
            if (!isEmpty(input)) {
                kept.add(input);
            }
        }
        if (kept.size() == u.inputs().size()) {
            return u;
        }
        Schema schema = u.schema();
        if (kept.isEmpty()) {
            return new EmptyRelation(schema);
        }
        if (kept.size() == 1) {
            return PlanRewrites.conform(kept.get(0), schema);
        }
        return PlanRewrites.conform(new Union(kept), schema);
    }

    /** Whether a projection outputs exactly its input's columns, by the same names, in order. */
    private static boolean isIdentity(Projection p) {
        List<String> names = p.input().schema().names();
        if (names.size() != p.exprs().size()) {
            return false;
        }
        for (int i = 0; i < names.size(); i++) {
            Expr e = p.exprs().get(i);
            if (!(e instanceof Column c) || !c.column().equals(names.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isFalseOrNull(Expr predicate) {
        return predicate instanceof Literal l && (l.value() == null || Boolean.FALSE.equals(l.value()));
    }

    private static boolean isEmpty(LogicalPlan plan) {
        return plan instanceof EmptyRelation;
    }

    private static EmptyRelation empty(LogicalPlan replaced) {
        return new EmptyRelation(replaced.schema());
    }
}
