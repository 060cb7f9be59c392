package io.sluice.optimizer;

import io.sluice.common.NodeMemo;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.JoinType;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.StatisticsContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Orders inner joins by estimated cost. A tree of inner joins (cross joins included) and filters
 * between them is flattened into a join graph: its leaves (anything else: scans, aggregates, outer,
 * semi and anti joins, which keep their place and semantics and are reordered inside on their own)
 * and its predicates (join keys, join filters and filter conjuncts). An equality between columns
 * of two leaves is an edge; a predicate over one leaf becomes a filter on it; any other predicate
 * is applied at the lowest join that has all the leaves it reads (in a filter above the joins when
 * that is the last join, or when it reads no leaf).
 *
 * <p>The order minimizes the sum of the estimated rows of every join's output (statistics from
 * the {@code StatisticsContext} it is given): by dynamic programming over connected subgraphs up to
 * {@code dpLimit} leaves, and greedily beyond (always joining the connected pair with the fewest
 * output rows). Only connected subgraphs are joined, so a connected graph never gets a cross
 * product; the connected components of a disconnected one are cross joined last, smallest first.
 * Each join puts its larger input on the left. A projection restores the original column order.
 *
 * <p>Guarantees: results are unchanged (inner joins and filters commute); the plan is replaced only
 * when the new order has fewer keyless joins, or the same number and a strictly lower cost, so a
 * second application (and a later optimizer pass) keeps the order it chose and returns the same
 * instance.
 */
public final class ReorderJoins implements LogicalRule {
    public static final int DEFAULT_DP_LIMIT = 10;
    /** Relative cost improvement below which the existing order is kept (estimates are not that precise). */
    private static final double MIN_IMPROVEMENT = 1e-9;

    private final int dpLimit;
    private final Supplier<StatisticsContext> statistics;

    /** A rule whose estimates come from {@code statistics} (one fresh context per application). */
    public ReorderJoins(int dpLimit, Supplier<StatisticsContext> statistics) {
        if (dpLimit < 2 || dpLimit > 16) {
            throw new IllegalArgumentException("sluice.optimizer.join-reorder.dp-limit must be in [2, 16]: " + dpLimit);
        }
        this.dpLimit = dpLimit;
        this.statistics = statistics;
    }

    @Override
    public String name() {
        return "ReorderJoins";
    }

    @Override
    public LogicalPlan apply(LogicalPlan plan) {
        return new Walk(statistics.get()).rewrite(plan);
    }

    /** One application: a node shared by several parents (a WITH query read twice) is rewritten once. */
    private final class Walk {
        private final StatisticsContext stats;
        private final NodeMemo<LogicalPlan, LogicalPlan> rewritten = new NodeMemo<>();

        Walk(StatisticsContext stats) {
            this.stats = stats;
        }

        LogicalPlan rewrite(LogicalPlan plan) {
            return rewritten.get(plan, node -> inRegion(node)
                    ? reorderRegion(node, this)
                    : PlanRewrites.mapChildren(node, this::rewrite));
        }
    }

    /** Inner joins, and filters over them, belong to a join region. */
    private static boolean inRegion(LogicalPlan plan) {
        if (plan instanceof Join j) {
            return j.type() == JoinType.INNER;
        }
        return plan instanceof Filter f && inRegion(f.input());
    }

    /**
     * The region's leaves and predicates; false when a node of the region is reached twice (a
     * shared inner join, joined to itself): such a region is not a tree of distinct relations and
     * is left in the order written (its parts are still reordered inside).
     */
    private static boolean flatten(LogicalPlan region, List<LogicalPlan> leaves, List<Expr> predicates) {
        Set<LogicalPlan> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        return flatten(region, leaves, predicates, seen);
    }

    private static boolean flatten(LogicalPlan plan, List<LogicalPlan> leaves, List<Expr> predicates,
            Set<LogicalPlan> seen) {
        if (!seen.add(plan)) {
            return false;
        }
        if (plan instanceof Join j && j.type() == JoinType.INNER) {
            if (!flatten(j.left(), leaves, predicates, seen) || !flatten(j.right(), leaves, predicates, seen)) {
                return false;
            }
            for (int i = 0; i < j.leftKeys().size(); i++) {
                predicates.add(new Binary(BinaryOp.EQ, j.leftKeys().get(i), j.rightKeys().get(i)));
            }
            if (j.filter() != null) {
                predicates.addAll(Exprs.conjuncts(j.filter()));
            }
        } else if (plan instanceof Filter f && inRegion(f.input())) {
            if (!flatten(f.input(), leaves, predicates, seen)) {
                return false;
            }
            predicates.addAll(Exprs.conjuncts(f.predicate()));
        } else {
            leaves.add(plan);
        }
        return true;
    }

    /** The region with its leaves replaced (by identity), rebuilt only where something changed. */
    private static LogicalPlan substitute(LogicalPlan plan, Map<LogicalPlan, LogicalPlan> leaves) {
        LogicalPlan leaf = leaves.get(plan);
        return leaf != null ? leaf : PlanRewrites.mapChildren(plan, child -> substitute(child, leaves));
    }

    private LogicalPlan reorderRegion(LogicalPlan region, Walk walk) {
        StatisticsContext stats = walk.stats;
        List<LogicalPlan> originalLeaves = new ArrayList<>();
        List<Expr> predicates = new ArrayList<>();
        if (!flatten(region, originalLeaves, predicates)) {
            return PlanRewrites.mapChildren(region, walk::rewrite);
        }
        Map<LogicalPlan, LogicalPlan> rewrittenLeaves = new IdentityHashMap<>();
        List<LogicalPlan> leaves = new ArrayList<>();
        for (LogicalPlan leaf : originalLeaves) {
            LogicalPlan r = walk.rewrite(leaf);
            if (r != leaf) {
                rewrittenLeaves.put(leaf, r);
            }
            leaves.add(r);
        }
        LogicalPlan existing = rewrittenLeaves.isEmpty() ? region : substitute(region, rewrittenLeaves);
        if (leaves.size() >= Long.SIZE) {
            return existing; // more leaves than a bitmask holds: keep the order as written
        }
        JoinGraph graph = JoinGraph.of(leaves, predicates);
        if (graph == null) {
            return existing;
        }
        JoinGraph.Planned best = graph.leafCount() <= dpLimit ? graph.dynamicProgramming(stats) : graph.greedy(stats);
        LogicalPlan tree = graph.withTopPredicates(best.plan());
        Cost before = cost(existing, stats);
        Cost after = cost(tree, stats);
        boolean better = after.keyless < before.keyless
                || (after.keyless == before.keyless && after.rows < before.rows * (1 - MIN_IMPROVEMENT));
        if (!better) {
            return existing;
        }
        return restoreColumns(tree, region.schema());
    }

    /** Keyless joins and the summed output rows of the joins of a region. */
    private record Cost(int keyless, double rows) {
    }

    private static Cost cost(LogicalPlan plan, StatisticsContext stats) {
        if (plan instanceof Join j && j.type() == JoinType.INNER) {
            Cost l = cost(j.left(), stats);
            Cost r = cost(j.right(), stats);
            return new Cost(l.keyless + r.keyless + (j.leftKeys().isEmpty() ? 1 : 0),
                    l.rows + r.rows + stats.of(j).rowCount());
        }
        if (plan instanceof Filter f && inRegion(f.input())) {
            return cost(f.input(), stats);
        }
        return new Cost(0, 0);
    }

    private static LogicalPlan restoreColumns(LogicalPlan tree, Schema original) {
        if (tree.schema().names().equals(original.names())) {
            return tree;
        }
        List<Expr> columns = new ArrayList<>(original.size());
        for (String name : original.names()) {
            columns.add(new Column(name));
        }
        return new Projection(tree, columns);
    }
}
