package io.sluice.optimizer;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Case;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.OuterColumn;
import io.sluice.logical.expr.Unary;
import io.sluice.logical.plan.Aggregate;
import io.sluice.logical.plan.Exists;
import io.sluice.logical.plan.InSubquery;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.JoinMark;
import io.sluice.logical.plan.JoinType;
import io.sluice.logical.plan.Limit;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.QuantifiedComparison;
import io.sluice.logical.plan.ScalarSubquery;
import io.sluice.logical.plan.Sort;
import io.sluice.logical.plan.SubqueryAlias;
import io.sluice.logical.plan.SubqueryExpr;
import io.sluice.optimizer.SubqueryUnnesting.Unnested;
import io.sluice.optimizer.SubqueryUnnesting.Unsupported;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds the join that replaces one subquery expression, for {@link DecorrelateSubqueries}: a
 * semi or anti join for a filter conjunct, a mark join for a predicate used as a value, a left
 * join for a scalar subquery, each over the subquery's plan unnested by {@link SubqueryUnnesting}.
 * Returns null where a subquery's correlation has no rewrite.
 */
final class SubqueryJoins {
    private SubqueryJoins() {
    }

    /** An input with joins added, and an expression over it. */
    record Rewritten(LogicalPlan input, Expr expr) {
    }
    /** What the new join is made of: its right side, keys and residual filter. */
    private static final class Assembly {
        final Decorrelation.RightSide right;
        final List<Expr> leftKeys = new ArrayList<>();
        final List<Expr> rightKeys = new ArrayList<>();
        final List<Expr> residual = new ArrayList<>();
        final SubqueryUnnesting unnesting;
        final LogicalPlan body;

        Assembly(LogicalPlan input, SubqueryUnnesting unnesting, Unnested u) {
            this.right = new Decorrelation.RightSide(Decorrelation.freshQualifier(input.schema()));
            this.unnesting = unnesting;
            this.body = u.plan();
            for (Expr p : u.pulled()) {
                Expr[] key = unnesting.equiKey(p);
                if (key != null) {
                    leftKeys.add(unnesting.toOuterInput(key[0]));
                    rightKeys.add(right.add(key[1]));
                } else {
                    residual.add(rebase(p));
                }
            }
            if (u.domain()) {
                Schema outer = input.schema();
                for (String c : unnesting.correlatedColumns()) {
                    Column d = right.add(new Column(unnesting.domainColumn(c, 0)));
                    SubqueryUnnesting.nullSafeKeys(new Column(c), d, outer.field(outer.indexOf(c)).type(), leftKeys,
                            rightKeys);
                }
            }
        }

        /** {@code e} over the join's combined columns: inner columns by their new names, outer ones as they are. */
        Expr rebase(Expr e) {
            return unnesting.toOuterInput(PlanRewrites.replaceColumns(e, right::add));
        }

        Expr filter() {
            return residual.isEmpty() ? null : Exprs.and(residual);
        }

        LogicalPlan rightPlan() {
            if (right.isEmpty()) {
                right.add(new Column(body.schema().field(0).name())); // a projection needs a column
            }
            return right.build(body);
        }

        Join join(LogicalPlan input, JoinType type, JoinMark mark) {
            LogicalPlan r = rightPlan();
            if (leftKeys.isEmpty()) {
                Literal zero = Literal.of(0L);
                return new Join(input, r, type, List.of(zero), List.of(zero), filter(), mark);
            }
            return new Join(input, r, type, leftKeys, rightKeys, filter(), mark);
        }
    }

    /** The unnesting of {@code sub}, the body of {@code e}, against {@code input}. */
    private static SubqueryUnnesting unnesting(LogicalPlan input, LogicalPlan sub, SubqueryExpr e) {
        Set<String> read = new LinkedHashSet<>();
        collectOuterReads(sub, e.outerScope(), read);
        Set<String> used = SubqueryUnnesting.allNames(sub);
        used.addAll(input.schema().names());
        return new SubqueryUnnesting(input, e.outerScope(), read, used);
    }

    /** Adds to {@code out} the outer columns of {@code scope} that {@code plan} reads, nested plans included. */
    static void collectOuterReads(LogicalPlan plan, long scope, Set<String> out) {
        PlanRewrites.forEachNode(plan, node -> {
            for (Expr e : node.expressions()) {
                Exprs.transformUp(e, x -> {
                    if (x instanceof OuterColumn o && o.scope() == scope) {
                        out.add(o.name());
                    }
                    return x;
                });
            }
        });
    }

    /** Whether some node of {@code plan}, or a plan nested in it, reads an outer column of any scope. */
    private static boolean readsAnyOuter(LogicalPlan plan) {
        return PlanRewrites.anyNode(plan, node -> node.expressions().stream().anyMatch(Exprs::containsOuterColumn));
    }

    /** {@code [NOT] EXISTS} or {@code IN} (any) or uncorrelated {@code NOT IN} as a filter conjunct: a semi or anti join. */
    static LogicalPlan conjunctJoin(LogicalPlan input, SubqueryExpr e) {
        boolean exists = e instanceof Exists;
        if (!exists && !(e instanceof InSubquery)) {
            return null;
        }
        boolean negated = exists ? ((Exists) e).negated() : ((InSubquery) e).negated();
        LogicalPlan sub = exists ? withoutRowLimit(e.subquery()) : withoutOrder(e.subquery());
        SubqueryUnnesting unnesting = unnesting(input, sub, e);
        boolean correlated = !unnesting.correlatedColumns().isEmpty();
        if (!exists && negated && (correlated || readsAnyOuter(sub))) {
            // NOT IN is NULL-aware per outer row (or per row of a query further out): a mark join
            return null;
        }
        Unnested u;
        try {
            u = unnesting.unnest(sub);
        } catch (Unsupported x) {
            return null;
        }
        Assembly a = new Assembly(input, unnesting, u);
        JoinType type = negated ? JoinType.LEFT_ANTI : JoinType.LEFT_SEMI;
        if (e instanceof InSubquery in) {
            a.leftKeys.add(0, in.value());
            a.rightKeys.add(0, a.right.add(new Column(sub.schema().field(0).name())));
            if (negated) {
                type = JoinType.LEFT_ANTI_NULL_AWARE;
            }
        }
        return a.join(input, type, null);
    }

    /** A subquery used as a value: a mark join for the predicates, a left join for a scalar. */
    static Rewritten valueJoin(LogicalPlan input, SubqueryExpr e) {
        if (e instanceof ScalarSubquery s) {
            return scalarJoin(input, s);
        }
        LogicalPlan sub = e instanceof Exists ? withoutRowLimit(e.subquery()) : withoutOrder(e.subquery());
        SubqueryUnnesting unnesting = unnesting(input, sub, e);
        if (membership(e) != null && !readsAnyOuter(sub)) {
            return hashedMembership(input, sub, e);
        }
        Unnested u;
        try {
            u = unnesting.unnest(sub);
        } catch (Unsupported x) {
            return null;
        }
        Assembly a = new Assembly(input, unnesting, u);
        String mark = a.right.qualifier() + ".mark";
        Expr condition;
        boolean negated;
        if (e instanceof Exists x) {
            condition = Literal.of(true);
            negated = x.negated();
        } else {
            Column y = a.right.add(new Column(sub.schema().field(0).name()));
            if (e instanceof InSubquery in) {
                condition = new Binary(BinaryOp.EQ, in.value(), y);
                negated = in.negated();
            } else {
                QuantifiedComparison q = (QuantifiedComparison) e;
                Expr compare = new Binary(q.op(), q.value(), y);
                // x op ALL (s) is NOT (x op' ANY (s)) with op' the negated comparison.
                condition = q.all() ? new Unary(Unary.Op.NOT, compare) : compare;
                negated = q.all();
            }
        }
        Join join = a.join(input, JoinType.LEFT_MARK, new JoinMark(mark, condition));
        Expr value = new Column(mark);
        return new Rewritten(join, negated ? new Unary(Unary.Op.NOT, value) : value);
    }

    /**
     * Of {@code x IN (s)}, {@code x = ANY (s)} (false) and {@code x NOT IN (s)}, {@code x <> ALL (s)}
     * (true): whether the membership is negated; null for other expressions.
     */
    private static Boolean membership(SubqueryExpr e) {
        if (e instanceof InSubquery in) {
            return in.negated();
        }
        if (e instanceof QuantifiedComparison q) {
            if (q.op() == BinaryOp.EQ && !q.all()) {
                return false;
            }
            if (q.op() == BinaryOp.NOT_EQ && q.all()) {
                return true;
            }
        }
        return null;
    }

    /**
     * An uncorrelated {@code x IN (s)} used as a value, hashed on {@code x = y} rather than trying
     * every pair: a mark join keyed on the values says whether {@code x} is among them (TRUE), and a
     * one-row count of the subquery's rows and non-NULL values decides the rest in SQL's logic:
     * FALSE over no rows, else NULL when {@code x} is NULL or a value is, else FALSE.
     */
    private static Rewritten hashedMembership(LogicalPlan input, LogicalPlan sub, SubqueryExpr e) {
        Expr x = e instanceof InSubquery in ? in.value() : ((QuantifiedComparison) e).value();
        Column y = new Column(sub.schema().field(0).name());
        Decorrelation.RightSide counts = new Decorrelation.RightSide(Decorrelation.freshQualifier(input.schema()));
        Column rows = counts.add(new Column("__rows"), "rows");
        Column values = counts.add(new Column("__values"), "values");
        LogicalPlan stats = new Aggregate(sub, List.of(), List.of(
                new Alias(new AggregateCall(AggregateFunction.COUNT_STAR, null), "__rows"),
                new Alias(new AggregateCall(AggregateFunction.COUNT, y), "__values")));
        LogicalPlan withCounts = Decorrelation.keyedCross(input, counts.build(stats), JoinType.INNER, null);
        Decorrelation.RightSide right = new Decorrelation.RightSide(Decorrelation.freshQualifier(withCounts.schema()));
        Column key = right.add(y);
        String mark = right.qualifier() + ".mark";
        Join join = Join.mark(withCounts, right.build(sub), List.of(x), List.of(key), null, JoinMark.exists(mark));
        Literal unknown = new Literal(null, io.sluice.common.types.DataType.BOOL);
        Expr value = new Case(List.of(
                new Column(mark),
                new Binary(BinaryOp.EQ, rows, Literal.of(0L)),
                new Binary(BinaryOp.OR, new Unary(Unary.Op.IS_NULL, x), new Binary(BinaryOp.LT, values, rows))),
                List.of(Literal.of(true), Literal.of(false), unknown), Literal.of(false));
        return new Rewritten(join, membership(e) ? new Unary(Unary.Op.NOT, value) : value);
    }

    private static Rewritten scalarJoin(LogicalPlan input, ScalarSubquery s) {
        LogicalPlan sub = withoutOrder(s.subquery());
        SubqueryUnnesting unnesting = unnesting(input, sub, s);
        String valueName = sub.schema().field(0).name();
        if (unnesting.correlatedColumns().isEmpty()) {
            LogicalPlan one = sub;
            if (overGlobalAggregate(sub) == null) {
                one = singleValue(sub, List.of(), valueName);
                valueName = SINGLE_VALUE;
            }
            Decorrelation.RightSide right = new Decorrelation.RightSide(Decorrelation.freshQualifier(input.schema()));
            Column value = right.add(new Column(valueName), "value");
            return new Rewritten(Decorrelation.keyedCross(input, right.build(one), JoinType.INNER, null), value);
        }
        try {
            Rewritten keyed = groupedByKeys(input, sub, unnesting);
            if (keyed != null) {
                return keyed;
            }
            Unnested u = unnesting.unnest(sub);
            if (overGlobalAggregate(sub) == null) {
                // Not one row per outer value by construction: group by the correlation, and fail on several rows.
                u = unnesting.allEquiKeys(u.pulled()) ? u : unnesting.toDomain(u);
                List<Expr> keys = new ArrayList<>();
                for (Expr p : u.pulled()) {
                    Expr inner = Exprs.unalias(unnesting.equiKey(p)[1]);
                    if (!keys.contains(inner)) {
                        keys.add(inner);
                    }
                }
                if (u.domain()) {
                    for (String c : unnesting.correlatedColumns()) {
                        keys.add(new Column(unnesting.domainColumn(c, 0)));
                    }
                }
                List<Expr> pulled = new ArrayList<>();
                for (Expr p : u.pulled()) {
                    Expr[] key = unnesting.equiKey(p);
                    pulled.add(new Binary(BinaryOp.EQ, key[0], new Column(Exprs.unalias(key[1]).name())));
                }
                u = new Unnested(singleValue(u.plan(), keys, valueName), pulled, u.domain());
                valueName = SINGLE_VALUE;
            }
            Assembly a = new Assembly(input, unnesting, u);
            Column value = a.right.add(new Column(valueName), "value");
            return new Rewritten(a.join(input, JoinType.LEFT, null), value);
        } catch (Unsupported x) {
            return null;
        }
    }

    /**
     * The classic shape {@code SELECT f(agg) FROM ... WHERE inner = outer ...}: projections over a
     * global aggregate whose input's correlation is all equalities. Grouped by the inner keys and
     * left-joined on the outer ones; an outer row without a group gets the aggregate over no rows
     * (counts 0, other aggregates NULL) through {@code CASE WHEN key IS NULL}. Null for other shapes.
     */
    private static Rewritten groupedByKeys(LogicalPlan input, LogicalPlan sub, SubqueryUnnesting unnesting) {
        Aggregate aggregate = overGlobalAggregate(sub);
        if (aggregate == null || aboveReadsOuter(sub, aggregate, unnesting)
                || aggregate.aggregates().stream().anyMatch(unnesting::readsOuter)) {
            return null;
        }
        Unnested below = unnesting.unnest(aggregate.input());
        if (below.domain() || below.pulled().isEmpty() || !unnesting.allEquiKeys(below.pulled())) {
            return null;
        }
        SubqueryUnnesting.Grouped grouped = unnesting.groupByKeys(below, List.of(), aggregate.aggregates());
        Unnested u = new Unnested(grouped.plan(), grouped.pulled(), false);
        // The projections above the aggregate, over the grouped one (they read aggregate columns by name).
        Expr selected = valueOver(sub, aggregate, new Column(sub.schema().field(0).name()));
        Assembly a = new Assembly(input, unnesting, u);
        Expr value = a.rebase(selected);
        Expr onNoRows = overNoRows(selected, aggregate);
        if (onNoRows != null) {
            Column key = a.right.add(grouped.keys().get(0));
            value = new Case(List.of(new Unary(Unary.Op.IS_NULL, key)), List.of(onNoRows), value);
        }
        return new Rewritten(a.join(input, JoinType.LEFT, null), value);
    }

    /** The aggregate under {@code plan}'s projections and aliases when it is a global one; else null. */
    private static Aggregate overGlobalAggregate(LogicalPlan plan) {
        if (plan instanceof Projection p) {
            return overGlobalAggregate(p.input());
        }
        if (plan instanceof SubqueryAlias a) {
            return overGlobalAggregate(a.input());
        }
        return plan instanceof Aggregate a && a.groupBy().isEmpty() ? a : null;
    }

    private static boolean aboveReadsOuter(LogicalPlan plan, Aggregate aggregate, SubqueryUnnesting unnesting) {
        if (plan == aggregate) {
            return false;
        }
        return plan.expressions().stream().anyMatch(e -> unnesting.readsOuter(e) || !SubqueryExpr.in(e).isEmpty())
                || aboveReadsOuter(plan.children().get(0), aggregate, unnesting);
    }

    /** {@code e} (over {@code plan}'s output) expressed over the aggregate's output, through the projections and aliases between. */
    private static Expr valueOver(LogicalPlan plan, Aggregate aggregate, Expr e) {
        if (plan == aggregate) {
            return e;
        }
        if (plan instanceof Projection p) {
            Map<String, Expr> defs = new HashMap<>();
            for (Expr x : p.exprs()) {
                defs.put(x.name(), Exprs.unalias(x));
            }
            return valueOver(p.input(), aggregate, PlanRewrites.replaceColumns(e, c -> defs.getOrDefault(c.column(), c)));
        }
        SubqueryAlias a = (SubqueryAlias) plan;
        Schema in = a.input().schema();
        return valueOver(a.input(), aggregate, PlanRewrites.replaceColumns(e,
                c -> new Column(in.field(a.schema().indexOf(c.column())).name())));
    }

    /** {@code selected} over no rows when some aggregate is a count (0; others NULL), else null. */
    private static Expr overNoRows(Expr selected, Aggregate aggregate) {
        Map<String, Expr> empty = new HashMap<>();
        boolean counts = false;
        for (Expr a : aggregate.aggregates()) {
            AggregateFunction f = ((AggregateCall) Exprs.unalias(a)).function();
            boolean count = f == AggregateFunction.COUNT || f == AggregateFunction.COUNT_STAR;
            counts |= count;
            empty.put(a.name(), count ? Literal.of(0L) : Literal.nullValue());
        }
        return counts ? PlanRewrites.replaceColumns(selected, c -> empty.getOrDefault(c.column(), c)) : null;
    }

    private static final String SINGLE_VALUE = "__single_value";

    /** {@code plan} grouped by {@code keys} with its column {@code value} as the group's single value, {@value #SINGLE_VALUE}. */
    private static LogicalPlan singleValue(LogicalPlan plan, List<Expr> keys, String value) {
        return new Aggregate(plan, keys,
                List.of(new Alias(new AggregateCall(AggregateFunction.SINGLE_VALUE, new Column(value)), SINGLE_VALUE)));
    }

    /** An {@code EXISTS} body without what cannot change whether it has a row: a top ORDER BY, a LIMIT of at least one. */
    private static LogicalPlan withoutRowLimit(LogicalPlan plan) {
        if (plan instanceof Limit l && l.offset() == 0 && l.fetch() >= 1) {
            return withoutRowLimit(l.input());
        }
        if (plan instanceof Sort s && (s.fetch() == Sort.ALL || s.fetch() >= 1)) {
            return withoutRowLimit(s.input());
        }
        if (plan instanceof Projection p && !p.exprs().isEmpty()
                && (p.input() instanceof Limit || p.input() instanceof Sort)) {
            LogicalPlan below = withoutRowLimit(p.input());
            return below == p.input() ? p : new Projection(below, p.exprs());
        }
        return plan;
    }

    /** A subquery body without a top ORDER BY that has no limit (it orders nothing anyone sees). */
    private static LogicalPlan withoutOrder(LogicalPlan plan) {
        if (plan instanceof Sort s && s.fetch() == Sort.ALL) {
            return s.input();
        }
        if (plan instanceof Projection p && p.input() instanceof Sort s && s.fetch() == Sort.ALL) {
            return new Projection(s.input(), p.exprs());
        }
        return plan;
    }
}
