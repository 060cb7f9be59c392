package io.sluice.optimizer;

import io.sluice.common.SluiceException;
import io.sluice.common.types.BinaryOp;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.JoinType;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.StatisticsContext;
import io.sluice.logical.plan.SubqueryExpr;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The join graph of one region of inner joins, for {@link ReorderJoins}: the leaves (in a canonical
 * order), the equalities between two leaves (edges) and the predicates applied where their leaves
 * meet, with the enumeration of join orders over it (dynamic programming over connected subsets,
 * or greedy) by the summed estimated rows of every join's output.
 */
final class JoinGraph {
    /** A subplan over a set of leaves, with the summed rows of its joins. */
    record Planned(long leaves, LogicalPlan plan, double cost, double rows) {
    }

    /** An equality between expressions over two leaves. */
    private record Edge(int left, int right, Expr leftKey, Expr rightKey, String text) {
    }

    /** A predicate over several leaves that is not an edge: applied where all its leaves meet. */
    private record Residual(long leaves, Expr predicate, String text) {
    }

    private final List<LogicalPlan> leaves;
    private final List<Edge> edges;
    private final List<Residual> residuals;
    private final List<Expr> top;
    private final long[] neighbours;

    private JoinGraph(List<LogicalPlan> leaves, List<Edge> edges, List<Residual> residuals, List<Expr> top) {
        this.leaves = leaves;
        this.edges = edges;
        this.residuals = residuals;
        this.top = top;
        this.neighbours = new long[leaves.size()];
        for (Edge e : edges) {
            neighbours[e.left] |= 1L << e.right;
            neighbours[e.right] |= 1L << e.left;
        }
    }

    int leafCount() {
        return leaves.size();
    }

    /**
     * The graph of a region; null when a predicate cannot be placed (a column no single leaf
     * has), in which case the region is left alone.
     */
    static JoinGraph of(List<LogicalPlan> unordered, List<Expr> predicates) {
        // A canonical leaf order (by plan text), so the result does not depend on the order written.
        List<LogicalPlan> leaves = new ArrayList<>(unordered);
        Map<LogicalPlan, String> text = new IdentityHashMap<>();
        leaves.forEach(l -> text.put(l, l.explain()));
        leaves.sort(Comparator.comparing(text::get));
        List<List<Expr>> leafFilters = new ArrayList<>();
        leaves.forEach(l -> leafFilters.add(new ArrayList<>()));
        List<Edge> edges = new ArrayList<>();
        List<Residual> residuals = new ArrayList<>();
        List<Expr> top = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (Expr predicate : predicates) {
            if (!seen.add(predicate.toString())) {
                continue;
            }
            if (!SubqueryExpr.in(predicate).isEmpty() || Exprs.containsOuterColumn(predicate)) {
                top.add(predicate);
                continue;
            }
            Expr resolved = qualify(predicate, leaves);
            if (resolved == null) {
                return null;
            }
            long refs = leavesOf(resolved, leaves);
            int count = Long.bitCount(refs);
            if (count == 0) {
                top.add(resolved);
            } else if (count == 1) {
                leafFilters.get(Long.numberOfTrailingZeros(refs)).add(resolved);
            } else {
                Edge edge = count == 2 ? edge(resolved, leaves) : null;
                if (edge != null) {
                    edges.add(edge);
                } else {
                    residuals.add(new Residual(refs, resolved, resolved.toString()));
                }
            }
        }
        List<LogicalPlan> filtered = new ArrayList<>(leaves.size());
        for (int i = 0; i < leaves.size(); i++) {
            List<Expr> filters = leafFilters.get(i);
            filters.sort(Comparator.comparing(Expr::toString));
            filtered.add(filters.isEmpty() ? leaves.get(i) : new Filter(leaves.get(i), Exprs.and(filters)));
        }
        edges.sort(Comparator.comparing(Edge::text));
        residuals.sort(Comparator.comparing(Residual::text));
        return new JoinGraph(filtered, edges, residuals, top);
    }

    /** The predicate with each column named as its one leaf names it; null if some column has no one leaf. */
    private static Expr qualify(Expr predicate, List<LogicalPlan> leaves) {
        Map<String, String> names = new HashMap<>();
        for (String column : Exprs.columns(predicate)) {
            String found = null;
            for (LogicalPlan leaf : leaves) {
                int index;
                try {
                    index = leaf.schema().indexOf(column);
                } catch (SluiceException ambiguous) {
                    return null;
                }
                if (index >= 0) {
                    if (found != null) {
                        return null;
                    }
                    found = leaf.schema().field(index).name();
                }
            }
            if (found == null) {
                return null;
            }
            names.put(column, found);
        }
        return Exprs.transformUp(predicate, e -> e instanceof Column c && !c.column().equals(names.get(c.column()))
                ? new Column(names.get(c.column())) : e);
    }

    private static long leavesOf(Expr resolved, List<LogicalPlan> leaves) {
        long refs = 0;
        for (String column : Exprs.columns(resolved)) {
            for (int i = 0; i < leaves.size(); i++) {
                if (leaves.get(i).schema().indexOf(column) >= 0) {
                    refs |= 1L << i;
                }
            }
        }
        return refs;
    }

    /** An equality whose two sides each read one (different) leaf, as an edge; else null. */
    private static Edge edge(Expr predicate, List<LogicalPlan> leaves) {
        if (!(predicate instanceof Binary b) || b.op() != BinaryOp.EQ) {
            return null;
        }
        long l = leavesOf(b.left(), leaves);
        long r = leavesOf(b.right(), leaves);
        if (Long.bitCount(l) != 1 || Long.bitCount(r) != 1 || l == r) {
            return null;
        }
        int li = Long.numberOfTrailingZeros(l);
        int ri = Long.numberOfTrailingZeros(r);
        return li < ri ? new Edge(li, ri, b.left(), b.right(), predicate.toString())
                : new Edge(ri, li, b.right(), b.left(), predicate.toString());
    }

    private boolean connected(long set) {
        long start = Long.lowestOneBit(set);
        long reached = start;
        long frontier = start;
        while (frontier != 0) {
            int i = Long.numberOfTrailingZeros(frontier);
            frontier &= frontier - 1;
            long next = neighbours[i] & set & ~reached;
            reached |= next;
            frontier |= next;
        }
        return reached == set;
    }

    private boolean linked(long a, long b) {
        for (long rest = a; rest != 0; rest &= rest - 1) {
            if ((neighbours[Long.numberOfTrailingZeros(rest)] & b) != 0) {
                return true;
            }
        }
        return false;
    }

    private Planned leaf(int i, StatisticsContext stats) {
        LogicalPlan plan = leaves.get(i);
        return new Planned(1L << i, plan, 0, stats.of(plan).rowCount());
    }

    /** The join of two subplans: keys from the edges between them, residuals that meet here. */
    private Planned join(Planned a, Planned b, StatisticsContext stats) {
        // The larger input on the left (the physical planner picks the build side by size anyway);
        // ties go to the one with the lowest leaf, so the order is canonical.
        boolean swap = b.rows > a.rows
                || (b.rows == a.rows && Long.numberOfTrailingZeros(b.leaves) < Long.numberOfTrailingZeros(a.leaves));
        Planned left = swap ? b : a;
        Planned right = swap ? a : b;
        List<Expr> leftKeys = new ArrayList<>();
        List<Expr> rightKeys = new ArrayList<>();
        for (Edge e : edges) {
            long l = 1L << e.left;
            long r = 1L << e.right;
            if ((left.leaves & l) != 0 && (right.leaves & r) != 0) {
                leftKeys.add(e.leftKey);
                rightKeys.add(e.rightKey);
            } else if ((left.leaves & r) != 0 && (right.leaves & l) != 0) {
                leftKeys.add(e.rightKey);
                rightKeys.add(e.leftKey);
            }
        }
        long both = left.leaves | right.leaves;
        List<Expr> filters = new ArrayList<>();
        for (Residual r : residuals) {
            if ((r.leaves & both) == r.leaves && (r.leaves & left.leaves) != r.leaves
                    && (r.leaves & right.leaves) != r.leaves) {
                filters.add(r.predicate);
            }
        }
        Join join = new Join(left.plan, right.plan, JoinType.INNER, leftKeys, rightKeys,
                filters.isEmpty() ? null : Exprs.and(filters));
        double rows = stats.of(join).rowCount();
        return new Planned(both, join, left.cost + right.cost + rows, rows);
    }

    /** The cheapest plan of each connected subset, built from the cheapest plans of its halves. */
    Planned dynamicProgramming(StatisticsContext stats) {
        int n = leaves.size();
        long all = (1L << n) - 1;
        Map<Long, Planned> best = new HashMap<>();
        for (int i = 0; i < n; i++) {
            best.put(1L << i, leaf(i, stats));
        }
        List<Long> subsets = new ArrayList<>();
        for (long s = 1; s <= all; s++) {
            if (Long.bitCount(s) > 1 && connected(s)) {
                subsets.add(s);
            }
        }
        subsets.sort(Comparator.comparingInt(Long::bitCount));
        for (long set : subsets) {
            long lowest = Long.lowestOneBit(set);
            Planned chosen = null;
            // Each split once: the half holding the lowest leaf, and the rest.
            for (long half = (set - 1) & set; half != 0; half = (half - 1) & set) {
                if ((half & lowest) == 0) {
                    continue;
                }
                Planned a = best.get(half);
                Planned b = best.get(set & ~half);
                if (a == null || b == null || !linked(half, set & ~half)) {
                    continue;
                }
                Planned candidate = join(a, b, stats);
                if (chosen == null || candidate.cost < chosen.cost) {
                    chosen = candidate;
                }
            }
            best.put(set, chosen);
        }
        Planned whole = best.get(all);
        return whole != null ? whole : crossComponents(components(best), stats);
    }

    /** The maximal connected subsets' best plans, for a disconnected graph. */
    private List<Planned> components(Map<Long, Planned> best) {
        List<Planned> out = new ArrayList<>();
        long left = (1L << leaves.size()) - 1;
        while (left != 0) {
            long component = Long.lowestOneBit(left);
            long frontier = component;
            while (frontier != 0) {
                int i = Long.numberOfTrailingZeros(frontier);
                frontier &= frontier - 1;
                long next = neighbours[i] & ~component;
                component |= next;
                frontier |= next;
            }
            out.add(best.get(component));
            left &= ~component;
        }
        return out;
    }

    /** Greedy: join the connected pair with the fewest output rows until none is left. */
    Planned greedy(StatisticsContext stats) {
        List<Planned> parts = new ArrayList<>();
        for (int i = 0; i < leaves.size(); i++) {
            parts.add(leaf(i, stats));
        }
        while (true) {
            Planned chosen = null;
            int ci = -1;
            int cj = -1;
            for (int i = 0; i < parts.size(); i++) {
                for (int j = i + 1; j < parts.size(); j++) {
                    if (!linked(parts.get(i).leaves, parts.get(j).leaves)) {
                        continue;
                    }
                    Planned candidate = join(parts.get(i), parts.get(j), stats);
                    if (chosen == null || candidate.rows < chosen.rows) {
                        chosen = candidate;
                        ci = i;
                        cj = j;
                    }
                }
            }
            if (chosen == null) {
                return crossComponents(parts, stats);
            }
            parts.remove(cj);
            parts.set(ci, chosen);
        }
    }

    /** Unconnected parts cross joined, smallest first. */
    private Planned crossComponents(List<Planned> parts, StatisticsContext stats) {
        List<Planned> sorted = new ArrayList<>(parts);
        sorted.sort(Comparator.comparingDouble(Planned::rows)
                .thenComparingLong(p -> Long.numberOfTrailingZeros(p.leaves)));
        Planned out = sorted.get(0);
        for (int i = 1; i < sorted.size(); i++) {
            out = join(out, sorted.get(i), stats);
        }
        return out;
    }

    /**
     * The tree under the predicates that read no leaf (or hold subqueries) and the root join's
     * residual filter, which stays above the joins as a filter, where filter pushdown leaves it.
     */
    LogicalPlan withTopPredicates(LogicalPlan tree) {
        List<Expr> above = new ArrayList<>(top);
        if (tree instanceof Join root && root.filter() != null) {
            above.addAll(Exprs.conjuncts(root.filter()));
            tree = root.withCondition(root.leftKeys(), root.rightKeys(), null);
        }
        if (above.isEmpty()) {
            return tree;
        }
        List<Expr> sorted = new ArrayList<>(above);
        sorted.sort(Comparator.comparing(Expr::toString));
        return new Filter(tree, Exprs.and(sorted));
    }
}
