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
import io.sluice.logical.plan.Filter;
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
            collectOuterReads(s.subquery(), s.outerScope(), read);
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
            LogicalPlan join = conjunct instanceof SubqueryExpr s ? conjunctJoin(input, s) : null;
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

    /** An input with joins added, and an expression over it. */
    private record Rewritten(LogicalPlan input, Expr expr) {
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
            Rewritten r = valueJoin(input, next);
            if (r == null) {
                skipped.add(next);
            } else {
                SubqueryExpr replaced = next;
                input = r.input();
                e = Exprs.transformUp(e, x -> x.equals(replaced) ? r.expr() : x);
            }
        }
    }

    // ---- the join for one subquery ----

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

    /** The unnesting of {@code sub} against {@code input}; null when its correlation has no rewrite. */
    /** The unnesting of {@code sub}, the body of {@code e}, against {@code input}. */
    private static SubqueryUnnesting unnesting(LogicalPlan input, LogicalPlan sub, SubqueryExpr e) {
        Set<String> read = new LinkedHashSet<>();
        collectOuterReads(sub, e.outerScope(), read);
        Set<String> used = SubqueryUnnesting.allNames(sub);
        used.addAll(input.schema().names());
        return new SubqueryUnnesting(input, e.outerScope(), read, used);
    }

    private static void collectOuterReads(LogicalPlan plan, long scope, Set<String> out) {
        for (Expr e : plan.expressions()) {
            Exprs.transformUp(e, x -> {
                if (x instanceof OuterColumn o && o.scope() == scope) {
                    out.add(o.name());
                }
                return x;
            });
            for (SubqueryExpr s : SubqueryExpr.in(e)) {
                collectOuterReads(s.subquery(), scope, out);
            }
        }
        for (LogicalPlan child : plan.children()) {
            collectOuterReads(child, scope, out);
        }
    }

    /** Whether some node of {@code plan}, or a plan nested in it, reads an outer column of any scope. */
    private static boolean readsAnyOuter(LogicalPlan plan) {
        for (Expr e : plan.expressions()) {
            if (Exprs.containsOuterColumn(e)) {
                return true;
            }
            for (SubqueryExpr s : SubqueryExpr.in(e)) {
                if (readsAnyOuter(s.subquery())) {
                    return true;
                }
            }
        }
        return plan.children().stream().anyMatch(DecorrelateSubqueries::readsAnyOuter);
    }

    /** {@code [NOT] EXISTS} or {@code IN} (any) or uncorrelated {@code NOT IN} as a filter conjunct: a semi or anti join. */
    private static LogicalPlan conjunctJoin(LogicalPlan input, SubqueryExpr e) {
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
    private static Rewritten valueJoin(LogicalPlan input, SubqueryExpr e) {
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
