package io.sluice.optimizer;

import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.plan.Aggregate;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.JoinType;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.SubqueryExpr;
import io.sluice.optimizer.SubqueryJoins.Rewritten;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns every subquery expression ({@code [NOT] EXISTS}, {@code [NOT] IN}, {@code op ANY/ALL},
 * scalar) of a filter, a projection, an inner join's condition or an aggregate's arguments into a
 * join of the node's input with the subquery, correlated or not, wherever it sits in the
 * expression:
 *
 * <ul>
 *   <li>a conjunct {@code [NOT] EXISTS} or {@code IN} of a filter: a {@code LEFT_SEMI} or
 *       {@code LEFT_ANTI} join (the filter only keeps or drops rows); an uncorrelated {@code NOT
 *       IN} conjunct: {@code LEFT_ANTI_NULL_AWARE};
 *   <li>any other {@code EXISTS}, {@code IN}, {@code ANY}, {@code ALL} (under OR or NOT, in CASE,
 *       in the select list, correlated NOT IN): a {@code LEFT_MARK} join whose mark column, TRUE,
 *       FALSE or NULL as SQL says, replaces the expression ({@code NOT mark} for NOT IN, NOT
 *       EXISTS and ALL, whose mark is that of the negated comparison);
 *   <li>a scalar subquery: a {@code LEFT} join with the subquery grouped by its correlation, the
 *       value read from the joined column. A subquery that is not a global aggregate is grouped
 *       with {@code SINGLE_VALUE}, which fails the query when a group has several rows; a
 *       correlated global aggregate whose correlation is equalities is grouped by the inner keys,
 *       and a count over no rows is kept 0 ({@code CASE WHEN key IS NULL}: the "count bug").
 * </ul>
 *
 * <p>The correlation is removed by {@link SubqueryUnnesting} (pulled-up predicates become the join's
 * keys and residual filter; otherwise the duplicate-free domain of outer values is joined in and
 * matched NULL-safely). Subqueries nested in subqueries are rewritten first, so a reference two
 * levels up is an outer reference of the rewritten inner plan. The subquery side's columns are
 * named {@code __sqN.c}, so they never clash with the outer query's; a filter gets a projection
 * restoring its columns. A subquery with no rewrite stays and fails at execution with a message
 * naming it. Returns the same instance when nothing changes, so a second pass is a no-op.
 */
public final class DecorrelateSubqueries implements LogicalRule {
    @Override
    public String name() {
        return "DecorrelateSubqueries";
    }

    @Override
    public LogicalPlan apply(LogicalPlan plan) {
        return PlanRewrites.transformUp(plan, node -> {
            LogicalPlan n = rewriteNested(node);
            if (n instanceof Filter f) {
                return rewrite(f);
            }
            if (n instanceof Projection p) {
                return rewrite(p);
            }
            if (n instanceof Join j) {
                return rewrite(j);
            }
            if (n instanceof Aggregate a) {
                return rewrite(a);
            }
            return n;
        });
    }

    /**
     * An aggregate whose grouping keys or arguments hold subqueries ({@code GROUP BY x IN (...)},
     * {@code sum(CASE WHEN x IN (...) THEN 1 END)}): those are computed per input row by a
     * projection below it, rewritten as any projection; the aggregate then reads their columns
     * (a key keeps its name, which the nodes above read).
     */
    private LogicalPlan rewrite(Aggregate a) {
        if (a.aggregates().stream().allMatch(e -> SubqueryExpr.in(e).isEmpty())
                && a.groupBy().stream().allMatch(e -> SubqueryExpr.in(e).isEmpty())) {
            return a;
        }
        List<Expr> below = new ArrayList<>();
        for (String name : a.input().schema().names()) {
            below.add(new Column(name));
        }
        List<Expr> groupBy = new ArrayList<>();
        int n = 0;
        for (Expr g : a.groupBy()) {
            if (SubqueryExpr.in(g).isEmpty()) {
                groupBy.add(g);
                continue;
            }
            String name = "__group_key_" + (++n);
            below.add(new Alias(rewriteNested(Exprs.unalias(g)), name));
            groupBy.add(PlanRewrites.named(new Column(name), g.name()));
        }
        List<Expr> aggregates = new ArrayList<>();
        for (Expr e : a.aggregates()) {
            AggregateCall call = (AggregateCall) Exprs.unalias(e);
            if (call.argument() == null || SubqueryExpr.in(call.argument()).isEmpty()) {
                aggregates.add(e);
                continue;
            }
            String name = "__aggregate_argument_" + (++n);
            below.add(new Alias(rewriteNested(call.argument()), name));
            aggregates.add(PlanRewrites.named(new AggregateCall(call.function(), new Column(name)), e.name()));
        }
        Projection arguments = new Projection(a.input(), below);
        LogicalPlan rewritten = rewrite(arguments);
        if (rewritten == arguments) {
            return a; // no rewrite: leave the subqueries where they were
        }
        return new Aggregate(rewritten, groupBy, aggregates);
    }

    /** {@code node} with this rule applied inside the subquery plans its expressions hold. */
    private LogicalPlan rewriteNested(LogicalPlan node) {
        if (node instanceof Filter f) {
            Expr p = rewriteNested(f.predicate());
            return p == f.predicate() ? f : new Filter(f.input(), p);
        }
        if (node instanceof Projection p) {
            List<Expr> exprs = new ArrayList<>();
            boolean changed = false;
            for (Expr e : p.exprs()) {
                Expr r = rewriteNested(e);
                changed |= r != e;
                exprs.add(r);
            }
            return changed ? new Projection(p.input(), exprs) : p;
        }
        if (node instanceof Join j && j.filter() != null) {
            Expr f = rewriteNested(j.filter());
            return f == j.filter() ? j : j.withCondition(j.leftKeys(), j.rightKeys(), f);
        }
        return node;
    }

    private Expr rewriteNested(Expr e) {
        return Exprs.transformUp(e, x -> {
            if (x instanceof SubqueryExpr s) {
                LogicalPlan r = apply(s.subquery());
                return r == s.subquery() ? x : s.withSubquery(r);
            }
            return x;
        });
    }

    /**
     * An inner join's conjuncts holding subqueries become a filter above it, rewritten as any
     * filter. In another join's condition a filter would change which rows the join preserves:
     * there each subquery that reads only one input's columns is computed as a column of that
     * input (a projection rewritten as any), which the condition then reads; a projection above
     * restores the join's columns. A subquery reading both inputs stays (no rewrite).
     */
    private LogicalPlan rewrite(Join j) {
        if (j.filter() == null || SubqueryExpr.in(j.filter()).isEmpty()) {
            return j;
        }
        List<Expr> plain = new ArrayList<>();
        List<Expr> withSubqueries = new ArrayList<>();
        for (Expr c : Exprs.conjuncts(j.filter())) {
            (SubqueryExpr.in(c).isEmpty() ? plain : withSubqueries).add(c);
        }
        if (j.type() != JoinType.INNER) {
            return outerJoinCondition(j, plain, withSubqueries);
        }
        Join without = j.withCondition(j.leftKeys(), j.rightKeys(), plain.isEmpty() ? null : Exprs.and(plain));
        Filter above = new Filter(without, Exprs.and(withSubqueries));
        LogicalPlan rewritten = rewrite(above);
        return rewritten == above ? j : rewritten;
    }

    private LogicalPlan outerJoinCondition(Join j, List<Expr> plain, List<Expr> withSubqueries) {
        Set<String> used = SubqueryUnnesting.allNames(j);
        List<Expr> leftExtra = new ArrayList<>();
        List<Expr> rightExtra = new ArrayList<>();
        List<Expr> condition = new ArrayList<>(plain);
        for (Expr c : withSubqueries) {
            condition.add(placeSubqueries(c, j, used, leftExtra, rightExtra));
        }
        LogicalPlan left = withColumns(j.left(), leftExtra);
        LogicalPlan right = withColumns(j.right(), rightExtra);
        if (left == j.left() && right == j.right()) {
            return j;
        }
        // A side whose subqueries had no rewrite gets them back in the condition.
        List<Expr> failed = new ArrayList<>(left == j.left() ? leftExtra : List.of());
        failed.addAll(right == j.right() ? rightExtra : List.of());
        Map<String, Expr> restore = new HashMap<>();
        for (Expr e : failed) {
            restore.put(e.name(), Exprs.unalias(e));
        }
        List<Expr> restored = new ArrayList<>();
        for (Expr c : condition) {
            restored.add(PlanRewrites.replaceColumns(c, col -> restore.getOrDefault(col.column(), col)));
        }
        Join join = new Join(left, right, j.type(), j.leftKeys(), j.rightKeys(), Exprs.and(restored), j.mark());
        List<Expr> columns = new ArrayList<>();
        for (String name : j.schema().names()) {
            columns.add(new Column(name));
        }
        return new Projection(join, columns);
    }

    /**
     * {@code e} with each outermost subquery expression that reads only one input of {@code j}
     * (its outer references, and for {@code IN}/{@code ANY} its value) replaced by a fresh column
     * {@code __on_N}, defined in {@code leftExtra} or {@code rightExtra}; others stay.
     */
    private static Expr placeSubqueries(Expr e, Join j, Set<String> used, List<Expr> leftExtra, List<Expr> rightExtra) {
        if (e instanceof SubqueryExpr s) {
            Set<String> read = new LinkedHashSet<>(Exprs.columns(s));
            SubqueryJoins.collectOuterReads(s.subquery(), s.outerScope(), read);
            List<Expr> side = j.left().schema().names().containsAll(read) ? leftExtra
                    : j.right().schema().names().containsAll(read) ? rightExtra : null;
            if (side == null) {
                return e;
            }
            String name;
            int n = leftExtra.size() + rightExtra.size();
            do {
                name = "__on_" + (++n);
            } while (used.contains(name));
            side.add(new Alias(e, name));
            return new Column(name);
        }
        List<Expr> children = new ArrayList<>();
        boolean changed = false;
        for (Expr child : e.children()) {
            Expr r = placeSubqueries(child, j, used, leftExtra, rightExtra);
            changed |= r != child;
            children.add(r);
        }
        return changed ? e.withChildren(children) : e;
    }

    /** {@code input} with {@code extra} computed as further columns, its subqueries rewritten; {@code input} when none or they have no rewrite. */
    private LogicalPlan withColumns(LogicalPlan input, List<Expr> extra) {
        if (extra.isEmpty()) {
            return input;
        }
        List<Expr> exprs = new ArrayList<>();
        for (String name : input.schema().names()) {
            exprs.add(new Column(name));
        }
        for (Expr e : extra) {
            exprs.add(rewriteNested(e));
        }
        Projection p = new Projection(input, exprs);
        LogicalPlan r = rewrite(p);
        return r == p ? input : r;
    }

    private LogicalPlan rewrite(Filter filter) {
        if (SubqueryExpr.in(filter.predicate()).isEmpty()) {
            return filter;
        }
        LogicalPlan input = filter.input();
        List<Expr> remaining = new ArrayList<>();
        for (Expr conjunct : Exprs.conjuncts(filter.predicate())) {
            LogicalPlan join = conjunct instanceof SubqueryExpr s ? SubqueryJoins.conjunctJoin(input, s) : null;
            if (join == null) {
                remaining.add(conjunct);
            } else {
                input = join;
            }
        }
        Expr predicate = remaining.isEmpty() ? null : Exprs.and(remaining);
        if (predicate != null) {
            Rewritten r = valueJoins(input, predicate);
            input = r.input();
            predicate = r.expr();
        }
        if (input == filter.input()) {
            return filter;
        }
        LogicalPlan out = predicate == null ? input : new Filter(input, predicate);
        if (out.schema().equals(filter.schema())) {
            return out;
        }
        List<Expr> columns = new ArrayList<>();
        for (String name : filter.schema().names()) {
            columns.add(new Column(name));
        }
        return new Projection(out, columns);
    }

    private LogicalPlan rewrite(Projection projection) {
        LogicalPlan input = projection.input();
        List<Expr> exprs = new ArrayList<>();
        for (Expr e : projection.exprs()) {
            if (SubqueryExpr.in(e).isEmpty()) {
                exprs.add(e);
                continue;
            }
            Rewritten r = valueJoins(input, e);
            input = r.input();
            exprs.add(PlanRewrites.named(r.expr(), e.name()));
        }
        return input == projection.input() ? projection : new Projection(input, exprs);
    }

    /**
     * Replaces the subqueries of {@code e}, innermost first, by columns of joins added to
     * {@code input}; those without a rewrite stay.
     */
    private static Rewritten valueJoins(LogicalPlan input, Expr e) {
        Set<SubqueryExpr> skipped = new HashSet<>();
        while (true) {
            SubqueryExpr next = null;
            for (SubqueryExpr s : SubqueryExpr.in(e)) {
                boolean innermost = s.children().stream().allMatch(c -> SubqueryExpr.in(c).isEmpty());
                if (innermost && !skipped.contains(s)) {
                    next = s;
                    break;
                }
            }
            if (next == null) {
                return new Rewritten(input, e);
            }
            Rewritten r = SubqueryJoins.valueJoin(input, next);
            if (r == null) {
                skipped.add(next);
            } else {
                SubqueryExpr replaced = next;
                input = r.input();
                e = Exprs.transformUp(e, x -> x.equals(replaced) ? r.expr() : x);
            }
        }
    }
}
