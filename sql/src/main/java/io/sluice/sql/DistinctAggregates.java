package io.sluice.sql;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Case;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.Unary;
import io.sluice.logical.plan.Aggregate;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.Union;
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
 * sum of sums over the sum of counts. DISTINCT calls over several arguments first expand the input
 * (see {@link #expanded}).
 */
final class DistinctAggregates {
    private DistinctAggregates() {
    }

    /** Whether any of {@code calls} (aggregate calls) is written with DISTINCT. */
    static boolean any(List<Expr> calls) {
        return calls.stream().anyMatch(c -> ((AggregateCall) c).argument() instanceof DistinctArgument);
    }

    static LogicalPlan plan(LogicalPlan input, List<Expr> groupBy, List<Expr> calls) {
        Set<Expr> distinct = new LinkedHashSet<>();
        for (Expr e : calls) {
            if (((AggregateCall) e).argument() instanceof DistinctArgument d) {
                distinct.add(d.input());
            }
        }
        return distinct.size() == 1 ? twoLevels(input, groupBy, calls, distinct)
                : expanded(input, groupBy, calls, List.copyOf(distinct));
    }

    /**
     * Several DISTINCT arguments: the input is expanded to one copy per argument (its rows carry only
     * that argument, the others NULL) plus one for the plain aggregates (their arguments, and a 1 for
     * count(*), set only there), united; over that, grouping by the keys and every argument sees each
     * argument's distinct values once per group and each input row's plain values once, so the
     * two-level plan applies unchanged. Every copy reads the input again.
     */
    private static LogicalPlan expanded(LogicalPlan input, List<Expr> groupBy, List<Expr> calls, List<Expr> distinct) {
        var schema = input.schema();
        List<Expr> plainArgs = new ArrayList<>();
        for (Expr e : calls) {
            AggregateCall call = (AggregateCall) e;
            if (!(call.argument() instanceof DistinctArgument) && call.argument() != null
                    && !plainArgs.contains(call.argument())) {
                plainArgs.add(call.argument());
            }
        }
        int copies = distinct.size() + 1;
        List<LogicalPlan> branches = new ArrayList<>();
        for (int copy = 0; copy < copies; copy++) {
            List<Expr> exprs = new ArrayList<>();
            for (int j = 0; j < groupBy.size(); j++) {
                exprs.add(new Alias(groupBy.get(j), "__key" + j));
            }
            for (int i = 0; i < distinct.size(); i++) {
                Expr x = distinct.get(i);
                exprs.add(new Alias(copy == i + 1 ? x : typedNull(x.type(schema)), "__distinct" + i));
            }
            for (int p = 0; p < plainArgs.size(); p++) {
                Expr a = plainArgs.get(p);
                exprs.add(new Alias(copy == 0 ? a : typedNull(a.type(schema)), "__plain" + p));
            }
            exprs.add(new Alias(copy == 0 ? Literal.of(1L) : typedNull(DataType.INT64), "__row"));
            branches.add(new Projection(input, exprs));
        }
        List<Expr> keys = new ArrayList<>();
        for (int j = 0; j < groupBy.size(); j++) {
            keys.add(new Column("__key" + j));
        }
        List<Expr> rewritten = new ArrayList<>();
        for (Expr e : calls) {
            AggregateCall call = (AggregateCall) e;
            if (call.argument() instanceof DistinctArgument d) {
                rewritten.add(new AggregateCall(call.function(),
                        new DistinctArgument(new Column("__distinct" + distinct.indexOf(d.input())))));
            } else if (call.argument() == null) {
                rewritten.add(new AggregateCall(AggregateFunction.COUNT, new Column("__row")));
            } else {
                rewritten.add(new AggregateCall(call.function(), new Column("__plain" + plainArgs.indexOf(call.argument()))));
            }
        }
        Set<Expr> distinctColumns = new LinkedHashSet<>();
        for (int i = 0; i < distinct.size(); i++) {
            distinctColumns.add(new Column("__distinct" + i));
        }
        LogicalPlan planned = twoLevels(Union.coerced(branches), keys, rewritten, distinctColumns);
        List<Expr> outputs = new ArrayList<>();
        for (int j = 0; j < groupBy.size(); j++) {
            outputs.add(new Alias(keys.get(j), groupBy.get(j).name()));
        }
        for (int c = 0; c < calls.size(); c++) {
            outputs.add(new Alias(new Column(rewritten.get(c).name()), calls.get(c).name()));
        }
        return new Projection(planned, outputs);
    }

    private static Expr typedNull(DataType type) {
        return type.kind() == DataType.Kind.NULL ? Literal.nullValue() : new Cast(Literal.nullValue(), type);
    }

    /**
     * Groups by the keys and every DISTINCT argument, then by the keys. Correct for one argument, and
     * for several over an {@link #expanded} input, where each row carries at most one of them.
     */
    private static LogicalPlan twoLevels(LogicalPlan input, List<Expr> groupBy, List<Expr> calls, Set<Expr> distinct) {
        Set<Expr> innerGroup = new LinkedHashSet<>(groupBy);
        innerGroup.addAll(distinct);
        Set<Expr> partials = new LinkedHashSet<>();
        Set<Expr> merges = new LinkedHashSet<>();
        List<Expr> outputs = new ArrayList<>();
        for (Expr g : groupBy) {
            outputs.add(new Column(g.name()));
        }
        for (Expr e : calls) {
            AggregateCall call = (AggregateCall) e;
            Expr out;
            if (call.function().isMoment() && !(call.argument() instanceof DistinctArgument && call.second() == null)) {
                throw SqlErrors.unsupported(call.function().sqlName() + "() beside DISTINCT aggregates"
                        + (call.second() == null ? "" : " or with DISTINCT"));
            }
            if (call.argument() instanceof DistinctArgument d) {
                AggregateCall merge = new AggregateCall(call.function(), new Column(d.input().name()));
                merges.add(merge);
                out = new Column(merge.name());
            } else {
                out = switch (call.function()) {
                    case SUM, MIN, MAX -> merged(call.function(), call, partials, merges);
                    case COUNT, COUNT_STAR -> {
                        Expr total = merged(AggregateFunction.SUM, call, partials, merges);
                        yield groupBy.isEmpty() ? zeroIfNull(total) : total;
                    }
                    case STDDEV_SAMP, STDDEV_POP, VAR_SAMP, VAR_POP, CORR, COVAR_SAMP, COVAR_POP ->
                            throw new IllegalStateException("rejected above");
                    case AVG -> {
                        Expr sum = merged(AggregateFunction.SUM,
                                new AggregateCall(AggregateFunction.SUM, call.argument()), partials, merges);
                        Expr count = merged(AggregateFunction.SUM,
                                new AggregateCall(AggregateFunction.COUNT, call.argument()), partials, merges);
                        yield new Binary(BinaryOp.DIVIDE, new Cast(sum, DataType.FLOAT64),
                                new Cast(count, DataType.FLOAT64));
                    }
                    case SINGLE_VALUE -> throw new IllegalArgumentException(
                            "SINGLE_VALUE is made by decorrelation, never beside a DISTINCT aggregate");
                    case COLLECT_LIST, COLLECT_SET, APPROX_COUNT_DISTINCT, PERCENTILE_APPROX, FIRST, LAST, MAX_BY, MIN_BY ->
                            throw SqlErrors.unsupported(call.function().sqlName() + "() beside DISTINCT aggregates");
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
