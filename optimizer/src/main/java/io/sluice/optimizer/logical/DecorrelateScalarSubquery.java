package io.sluice.optimizer.logical;

import io.sluice.optimizer.logical.Decorrelation.Pulled;
import io.sluice.optimizer.logical.Decorrelation.RightSide;
import io.sluice.plan.expr.AggregateCall;
import io.sluice.plan.expr.AggregateFunction;
import io.sluice.plan.expr.Case;
import io.sluice.plan.expr.Column;
import io.sluice.plan.expr.Expr;
import io.sluice.plan.expr.Exprs;
import io.sluice.plan.expr.Literal;
import io.sluice.plan.expr.ScalarSubquery;
import io.sluice.plan.expr.SubqueryExpr;
import io.sluice.plan.expr.Unary;
import io.sluice.plan.logical.Aggregate;
import io.sluice.plan.logical.Filter;
import io.sluice.plan.logical.Join;
import io.sluice.plan.logical.JoinType;
import io.sluice.plan.logical.LogicalPlan;
import io.sluice.plan.logical.Projection;
import io.sluice.plan.logical.SubqueryAlias;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns scalar subqueries in a filter or a projection into joins that add their value as a column:
 *
 * <ul>
 *   <li>Uncorrelated, over a global aggregate (exactly one row, whatever its input): a cross join
 *       with that one row (keyed on a constant, see {@link Decorrelation#keyedCross}).
 *   <li>Correlated, {@code SELECT f(agg...) FROM ... WHERE inner_k = outer_k AND ...} (a global
 *       aggregate whose correlated predicates are all equalities in the filters at the top of its
 *       input): a LEFT join of the input with the aggregate grouped by the inner keys, on the outer
 *       keys. A row without a group gets NULL, which is what the subquery gives over no rows except
 *       when it counts: then the value is {@code CASE WHEN key IS NULL THEN f(0 for counts, NULL
 *       for other aggregates) ELSE value END}, so {@code count(*)} over no rows is 0 (the "count
 *       bug").
 * </ul>
 *
 * <p>The subquery side's columns are named {@code __sqN.c} so they cannot clash with the input's; a
 * filter gets a projection above restoring its columns, a projection keeps each output's name.
 * Left alone (failing at execution with an "unsupported subquery" error): scalar subqueries that
 * may return more or fewer than one row when uncorrelated, and correlated ones not of the shape
 * above. Subqueries nested in subqueries are rewritten first. Returns the same instance when
 * nothing changes.
 */
public final class DecorrelateScalarSubquery implements LogicalRule {
    @Override
    public String name() {
        return "DecorrelateScalarSubquery";
    }

    @Override
    public LogicalPlan apply(LogicalPlan plan) {
        return PlanRewrites.transformUp(plan, node -> {
            LogicalPlan n = Decorrelation.rewriteNested(node, this::apply);
            if (n instanceof Filter f) {
                return rewrite(f);
            }
            return n instanceof Projection p ? rewrite(p) : n;
        });
    }

    /** A join adding a subquery's value to an input, and the expression that reads it. */
    private record Rewrite(LogicalPlan join, Expr value) {
    }

    private static LogicalPlan rewrite(Filter filter) {
        LogicalPlan input = filter.input();
        Expr predicate = filter.predicate();
        for (ScalarSubquery s : scalars(predicate)) {
            Rewrite r = toJoin(input, s);
            if (r != null) {
                input = r.join();
                predicate = replace(predicate, s, r.value());
            }
        }
        if (input == filter.input()) {
            return filter;
        }
        List<Expr> columns = new ArrayList<>();
        for (String name : filter.schema().names()) {
            columns.add(new Column(name));
        }
        return new Projection(new Filter(input, predicate), columns);
    }

    private static LogicalPlan rewrite(Projection projection) {
        LogicalPlan input = projection.input();
        List<Expr> exprs = new ArrayList<>(projection.exprs());
        for (int i = 0; i < exprs.size(); i++) {
            for (ScalarSubquery s : scalars(exprs.get(i))) {
                Rewrite r = toJoin(input, s);
                if (r != null) {
                    input = r.join();
                    exprs.set(i, PlanRewrites.named(replace(exprs.get(i), s, r.value()),
                            projection.exprs().get(i).name()));
                }
            }
        }
        return input == projection.input() ? projection : new Projection(input, exprs);
    }

    private static List<ScalarSubquery> scalars(Expr e) {
        List<ScalarSubquery> out = new ArrayList<>();
        for (SubqueryExpr s : Exprs.subqueries(e)) {
            if (s instanceof ScalarSubquery scalar && !out.contains(scalar)) {
                out.add(scalar);
            }
        }
        return out;
    }

    private static Expr replace(Expr e, ScalarSubquery s, Expr with) {
        return Exprs.transformUp(e, x -> x.equals(s) ? with : x);
    }

    private static Rewrite toJoin(LogicalPlan input, ScalarSubquery s) {
        LogicalPlan sub = s.subquery();
        RightSide right = new RightSide(Decorrelation.freshQualifier(input.schema()));
        if (!Decorrelation.isCorrelated(sub)) {
            if (!exactlyOneRow(sub)) {
                return null;
            }
            Column value = right.add(new Column(sub.schema().field(0).name()), "value");
            return new Rewrite(Decorrelation.keyedCross(input, right.build(sub), JoinType.INNER, null), value);
        }
        if (!(sub instanceof Projection select && select.input() instanceof Aggregate aggregate
                && aggregate.groupBy().isEmpty())) {
            return null;
        }
        Pulled pulled = Decorrelation.pullCorrelated(aggregate.input());
        if (Decorrelation.isCorrelated(pulled.body()) || Exprs.containsOuterColumn(select.exprs().get(0))
                || aggregate.aggregates().stream().anyMatch(Exprs::containsOuterColumn)) {
            return null;
        }
        List<Expr> outerKeys = new ArrayList<>();
        List<Expr> innerKeys = new ArrayList<>();
        for (Expr c : pulled.correlated()) {
            Expr[] key = Decorrelation.equiKey(c);
            if (key == null) {
                return null;
            }
            outerKeys.add(key[0]);
            innerKeys.add(key[1]);
        }
        Aggregate grouped = new Aggregate(pulled.body(), innerKeys, aggregate.aggregates());
        List<Expr> rightKeys = new ArrayList<>();
        for (int i = 0; i < innerKeys.size(); i++) {
            rightKeys.add(right.add(new Column(grouped.schema().field(i).name())));
        }
        Expr selected = Exprs.unalias(select.exprs().get(0));
        Expr value = right.add(selected, "value");
        LogicalPlan join = new Join(input, right.build(grouped), JoinType.LEFT, outerKeys, rightKeys, null);
        Expr onNoRows = overNoRows(selected, aggregate.aggregates());
        if (onNoRows != null) {
            value = new Case(List.of(new Unary(Unary.Op.IS_NULL, rightKeys.get(0))), List.of(onNoRows), value);
        }
        return new Rewrite(join, value);
    }

    /**
     * What {@code selected} (over the aggregate's output) is over no rows, when some aggregate is a
     * count and so that differs from NULL; else null. Counts are 0, other aggregates NULL.
     */
    private static Expr overNoRows(Expr selected, List<Expr> aggregates) {
        Map<String, Expr> empty = new HashMap<>();
        boolean counts = false;
        for (Expr a : aggregates) {
            AggregateCall call = (AggregateCall) Exprs.unalias(a);
            boolean count = call.function() == AggregateFunction.COUNT || call.function() == AggregateFunction.COUNT_STAR;
            counts |= count;
            empty.put(a.name(), count ? Literal.of(0L) : Literal.nullValue());
        }
        if (!counts) {
            return null;
        }
        return PlanRewrites.replaceColumns(selected, c -> empty.getOrDefault(c.column(), c));
    }

    /** Whether {@code plan} yields exactly one row: a global aggregate, maybe renamed or projected. */
    private static boolean exactlyOneRow(LogicalPlan plan) {
        if (plan instanceof Projection p) {
            return exactlyOneRow(p.input());
        }
        if (plan instanceof SubqueryAlias a) {
            return exactlyOneRow(a.input());
        }
        return plan instanceof Aggregate a && a.groupBy().isEmpty();
    }
}
