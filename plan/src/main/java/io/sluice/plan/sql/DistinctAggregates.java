package io.sluice.plan.sql;

import io.sluice.plan.expr.AggregateCall;
import io.sluice.plan.expr.AggregateFunction;
import io.sluice.plan.expr.Alias;
import io.sluice.plan.expr.Binary;
import io.sluice.plan.expr.BinaryOp;
import io.sluice.plan.expr.Case;
import io.sluice.plan.expr.Cast;
import io.sluice.plan.expr.Column;
import io.sluice.plan.expr.Expr;
import io.sluice.plan.expr.Literal;
import io.sluice.plan.expr.Unary;
import io.sluice.plan.logical.Aggregate;
import io.sluice.plan.logical.LogicalPlan;
import io.sluice.plan.logical.Projection;
import io.sluice.plan.types.DataType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Plans aggregates written with DISTINCT ({@code count(DISTINCT x)}, {@code sum(DISTINCT x)}, ...,
 * alone or beside plain aggregates) as two aggregations, so that no single task sees every row:
 *
 * <pre>
 * Projection: g, count(x) AS "count(DISTINCT x)", coalesce(sum(count(*)), 0) AS "count(*)"
 *   Aggregate: groupBy=[g], aggr=[count(x), sum(count(*))]        -- each distinct x once per group
 *     Aggregate: groupBy=[g, x], aggr=[count(*)]                   -- partial plain aggregates
 * </pre>
 *
 * The output has the columns a plain {@link Aggregate} of the same calls would have (group-by
 * expressions, then each call under its own name), so HAVING, the select list and ORDER BY are
 * rewritten over it the same way. Plain calls are merged from their per-(g, x) partials: sum of sums,
 * min of mins, max of maxes, sum of counts (0 for a global aggregate over no rows), and avg as the
 * sum of sums over the sum of counts. All DISTINCT calls must share one argument; several would need
 * one such plan each, joined on the group keys, which is not built yet.
 */
final class DistinctAggregates {
    private DistinctAggregates() {
    }

    /** Whether any of {@code calls} (aggregate calls) is written with DISTINCT. */
    static boolean any(List<Expr> calls) {
        return calls.stream().anyMatch(c -> ((AggregateCall) c).argument() instanceof DistinctArgument);
    }

    static LogicalPlan plan(LogicalPlan input, List<Expr> groupBy, List<Expr> calls) {
        Expr distinct = null;
        for (Expr e : calls) {
            if (((AggregateCall) e).argument() instanceof DistinctArgument d) {
                if (distinct != null && !distinct.equals(d.input())) {
                    throw SqlErrors.unsupported("DISTINCT aggregates over different arguments (" + distinct + " and "
                            + d.input() + ") in one query");
                }
                distinct = d.input();
            }
        }
        Set<Expr> innerGroup = new LinkedHashSet<>(groupBy);
        innerGroup.add(distinct);
        Set<Expr> partials = new LinkedHashSet<>();
        Set<Expr> merges = new LinkedHashSet<>();
        List<Expr> outputs = new ArrayList<>();
        for (Expr g : groupBy) {
            outputs.add(new Column(g.name()));
        }
        Column distinctColumn = new Column(distinct.name());
        for (Expr e : calls) {
            AggregateCall call = (AggregateCall) e;
            Expr out;
            if (call.argument() instanceof DistinctArgument) {
                AggregateCall merge = new AggregateCall(call.function(), distinctColumn);
                merges.add(merge);
                out = new Column(merge.name());
            } else {
                out = switch (call.function()) {
                    case SUM, MIN, MAX -> merged(call.function(), call, partials, merges);
                    case COUNT, COUNT_STAR -> {
                        Expr total = merged(AggregateFunction.SUM, call, partials, merges);
                        yield groupBy.isEmpty() ? zeroIfNull(total) : total;
                    }
                    case AVG -> {
                        Expr sum = merged(AggregateFunction.SUM,
                                new AggregateCall(AggregateFunction.SUM, call.argument()), partials, merges);
                        Expr count = merged(AggregateFunction.SUM,
                                new AggregateCall(AggregateFunction.COUNT, call.argument()), partials, merges);
                        yield new Binary(BinaryOp.DIVIDE, new Cast(sum, DataType.FLOAT64),
                                new Cast(count, DataType.FLOAT64));
                    }
                };
            }
            outputs.add(new Alias(out, call.name()));
        }
        LogicalPlan inner = new Aggregate(input, List.copyOf(innerGroup), List.copyOf(partials));
        List<Expr> outerGroup = new ArrayList<>();
        for (Expr g : groupBy) {
            outerGroup.add(new Column(g.name()));
        }
        return new Projection(new Aggregate(inner, outerGroup, List.copyOf(merges)), outputs);
    }

    /** {@code partial} computed per (group, distinct value), then merged by {@code merge}: the merged column. */
    private static Expr merged(AggregateFunction merge, AggregateCall partial, Set<Expr> partials, Set<Expr> merges) {
        partials.add(partial);
        AggregateCall call = new AggregateCall(merge, new Column(partial.name()));
        merges.add(call);
        return new Column(call.name());
    }

    private static Expr zeroIfNull(Expr e) {
        return new Case(List.of(new Unary(Unary.Op.IS_NULL, e)), List.of(Literal.of(0L)), e);
    }
}
