package io.sluice.optimizer;

import io.sluice.common.NodeMemo;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.plan.Aggregate;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.JoinType;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.Sort;
import io.sluice.logical.plan.SubqueryAlias;
import io.sluice.logical.plan.SubqueryExpr;
import io.sluice.logical.plan.Union;
import io.sluice.logical.plan.Window;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Moves filters towards the scans, so fewer rows flow through everything above. A filter's
 * conjuncts move, each on its own, as far as they can in one application:
 *
 * <ul>
 *   <li>through a projection, with each column replaced by the expression that computes it;
 *   <li>through a sort, a subquery alias (renaming columns) and into every input of a union
 *       (renaming to each input's names);
 *   <li>through an aggregate, for conjuncts that read only grouping columns (at least one: a
 *       constant conjunct over a global aggregate decides whether its one row is output);
 *   <li>through a window, for conjuncts that read only PARTITION BY columns (they keep or drop
 *       whole partitions);
 *   <li>into a join side, for conjuncts that read only that side's columns, but only into a side
 *       whose rows the join does not preserve: a conjunct above the join on the null-supplying side
 *       of an outer join stays above, because it also sees the NULL-padded rows;
 *   <li>the join's own residual filter: conjuncts on one side only move into that side when they
 *       cannot decide whether a preserved row is output (so into either side of inner and semi
 *       joins, only the null-supplying side of outer joins, only the right of anti joins).
 * </ul>
 *
 * <p>A filter that lands on another filter is merged with it. Conjuncts that cannot move stay where
 * they were. Guarantees: the rows are the same; a plan with nothing to move comes back as the same
 * instance; each application moves every movable conjunct all the way down, so a second application
 * finds nothing to do.
 */
public final class PushDownFilter implements NodeRule {
    /** Each filter pushed into a node, by the node and the predicate: pushed once however often the node is shared. */
    private final NodeMemo<LogicalPlan, LogicalPlan> pushed = new NodeMemo<>();

    @Override
    public NodeRule forOneWalk() {
        return new PushDownFilter();
    }

    @Override
    public String name() {
        return "PushDownFilter";
    }

    /**
     * Bottom-up: a filter is pushed all the way down by {@link #applyToNode} itself; going bottom-up
     * means a lower filter has already moved when an upper one lands on it.
     */
    @Override
    public ApplyOrder applyOrder() {
        return ApplyOrder.BOTTOM_UP;
    }

    @Override
    public LogicalPlan applyToNode(LogicalPlan node) {
        if (node instanceof Filter f) {
            return pushFilter(f);
        }
        if (node instanceof Join j) {
            return pushJoinFilter(j);
        }
        return node;
    }

    /** {@code filter} pushed as far down as it goes; the same instance when it cannot move. */
    private LogicalPlan pushFilter(Filter filter) {
        LogicalPlan child = filter.input();
        List<Expr> conjuncts = Exprs.conjuncts(filter.predicate());
        if (child instanceof Filter lower) {
            return pushFilter(new Filter(lower.input(), new Binary(BinaryOp.AND, lower.predicate(), filter.predicate())));
        }
        if (child instanceof Projection p) {
            Schema out = p.schema();
            Expr below = PlanRewrites.replaceColumns(filter.predicate(),
                    c -> Exprs.unalias(p.exprs().get(PlanRewrites.indexOf(out, c.column()))));
            return p.withNewChildren(List.of(filterOver(p.input(), below)));
        }
        boolean topK = child instanceof Sort sort && sort.fetch() != Sort.ALL; // filtering first would change which rows are kept
        if ((child instanceof Sort && !topK) || child instanceof SubqueryAlias) {
            LogicalPlan input = child.children().get(0);
            Expr below = PlanRewrites.rebase(filter.predicate(), child.schema(), input.schema(), 0);
            return child.withNewChildren(List.of(filterOver(input, below)));
        }
        if (child instanceof Union u) {
            Schema out = u.schema();
            List<LogicalPlan> inputs = new ArrayList<>(u.inputs().size());
            for (LogicalPlan input : u.inputs()) {
                inputs.add(filterOver(input, PlanRewrites.rebase(filter.predicate(), out, input.schema(), 0)));
            }
            return new Union(inputs);
        }
        if (child instanceof Aggregate a) {
            return throughAggregate(filter, a, conjuncts);
        }
        if (child instanceof Join j) {
            return intoJoin(filter, j, conjuncts);
        }
        if (child instanceof Window w) {
            return throughWindow(filter, w, conjuncts);
        }
        return filter;
    }

    /**
     * A conjunct reading only PARTITION BY columns keeps or drops whole partitions, so it gives the
     * same rows below the window (where it also shrinks the shuffle); any other stays above: a
     * window's values depend on the rows of its partition.
     */
    private LogicalPlan throughWindow(Filter filter, Window w, List<Expr> conjuncts) {
        Set<String> keys = new HashSet<>();
        for (Expr p : w.window().partitionBy()) {
            if (p instanceof Column c) {
                keys.add(c.column());
            }
        }
        List<Expr> stay = new ArrayList<>();
        List<Expr> move = new ArrayList<>();
        for (Expr c : conjuncts) {
            Set<String> columns = Exprs.columns(c);
            boolean onKeys = !columns.isEmpty() && keys.containsAll(columns) && SubqueryExpr.in(c).isEmpty();
            (onKeys ? move : stay).add(c);
        }
        if (move.isEmpty()) {
            return filter;
        }
        return filterOver(w.withNewChildren(List.of(filterOver(w.input(), Exprs.and(move)))), stay);
    }

    private LogicalPlan throughAggregate(Filter filter, Aggregate a, List<Expr> conjuncts) {
        Schema out = a.schema();
        int keys = a.groupBy().size();
        List<Expr> stay = new ArrayList<>();
        List<Expr> move = new ArrayList<>();
        for (Expr c : conjuncts) {
            Set<Integer> columns = PlanRewrites.columnIndexes(c, out);
            if (!columns.isEmpty() && columns.stream().allMatch(i -> i < keys)) {
                move.add(PlanRewrites.replaceColumns(c,
                        col -> Exprs.unalias(a.groupBy().get(PlanRewrites.indexOf(out, col.column())))));
            } else {
                stay.add(c);
            }
        }
        if (move.isEmpty()) {
            return filter;
        }
        return filterOver(a.withNewChildren(List.of(filterOver(a.input(), Exprs.and(move)))), stay);
    }

    /** A filter above a join: conjuncts on one side go into that side unless the join pads it with NULLs. */
    private LogicalPlan intoJoin(Filter filter, Join j, List<Expr> conjuncts) {
        Split split = split(conjuncts, j, j.schema(), aboveIntoLeft(j.type()), aboveIntoRight(j.type()));
        if (split.left.isEmpty() && split.right.isEmpty()) {
            return filter;
        }
        return filterOver(withSides(j, split), split.stay);
    }

    /** The join's residual filter: one-side conjuncts go into a side whose rows the join does not preserve. */
    private LogicalPlan pushJoinFilter(Join j) {
        if (j.filter() == null) {
            return j;
        }
        Split split = split(Exprs.conjuncts(j.filter()), j, j.combinedSchema(), residualIntoLeft(j.type()),
                residualIntoRight(j.type()));
        if (split.left.isEmpty() && split.right.isEmpty()) {
            return j;
        }
        Join sides = withSides(j, split);
        return sides.withCondition(sides.leftKeys(), sides.rightKeys(), split.stay.isEmpty() ? null : Exprs.and(split.stay));
    }

    /** Whether a one-side conjunct of a filter above a join of {@code type} may move into its left input. */
    static boolean aboveIntoLeft(JoinType type) {
        return !type.preservesRight();
    }

    /** Whether a one-side conjunct of a filter above a join of {@code type} may move into its right input. */
    static boolean aboveIntoRight(JoinType type) {
        return type == JoinType.INNER || type == JoinType.RIGHT;
    }

    /** Whether a one-side conjunct of the residual filter of a join of {@code type} may move into its left input. */
    static boolean residualIntoLeft(JoinType type) {
        return type == JoinType.INNER || type == JoinType.RIGHT || type == JoinType.LEFT_SEMI;
    }

    /** Whether a one-side conjunct of the residual filter of a join of {@code type} may move into its right input. */
    static boolean residualIntoRight(JoinType type) {
        return type == JoinType.INNER || type == JoinType.LEFT || type == JoinType.LEFT_SEMI
                || type == JoinType.LEFT_ANTI || type == JoinType.LEFT_MARK;
    }

    /** Conjuncts sorted into those for the left input, for the right input (rebased) and those that stay. */
    private record Split(List<Expr> left, List<Expr> right, List<Expr> stay) {
    }

    private static Split split(List<Expr> conjuncts, Join j, Schema over, boolean intoLeft, boolean intoRight) {
        Schema left = j.left().schema();
        Schema right = j.right().schema();
        int leftSize = left.size();
        Split split = new Split(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (Expr c : conjuncts) {
            Set<Integer> columns = PlanRewrites.columnIndexes(c, over);
            if (columns.isEmpty()) {
                split.stay.add(c);
            } else if (intoLeft && columns.stream().allMatch(i -> i < leftSize)) {
                split.left.add(PlanRewrites.rebase(c, over, left, 0));
            } else if (intoRight && columns.stream().allMatch(i -> i >= leftSize)) {
                split.right.add(PlanRewrites.rebase(c, over, right, leftSize));
            } else {
                split.stay.add(c);
            }
        }
        return split;
    }

    private Join withSides(Join j, Split split) {
        LogicalPlan left = split.left.isEmpty() ? j.left() : filterOver(j.left(), Exprs.and(split.left));
        LogicalPlan right = split.right.isEmpty() ? j.right() : filterOver(j.right(), Exprs.and(split.right));
        return (Join) j.withNewChildren(List.of(left, right));
    }

    /**
     * A filter of {@code predicate} over {@code input}, itself pushed down as far as it goes; once
     * per input and predicate, so a shared input gets one result (shared too) per distinct
     * predicate, and a parent pushing another predicate never changes what this one got.
     */
    private LogicalPlan filterOver(LogicalPlan input, Expr predicate) {
        return pushed.get(input, predicate, () -> pushFilter(new Filter(input, predicate)));
    }

    private static LogicalPlan filterOver(LogicalPlan input, List<Expr> conjuncts) {
        return conjuncts.isEmpty() ? input : new Filter(input, Exprs.and(conjuncts));
    }
}
