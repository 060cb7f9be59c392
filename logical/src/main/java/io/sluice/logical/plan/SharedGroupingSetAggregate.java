package io.sluice.logical.plan;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.AggregateFunction;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Case;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.GroupingCall;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.expr.ScalarFunction;
import io.sluice.logical.expr.Unary;
import io.sluice.logical.expr.Unevaluable;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Grouping sets from one pass over the input (Spark's Expand, over partial results): one aggregation
 * by every group-by expression (the finest grouping) computes each call's partial result; each of its
 * rows is repeated once per set ({@code __set}, the set's ordinal), with the expressions outside that
 * set NULL; one aggregation by the expressions and {@code __set} merges the partials. The input is
 * read and hashed once, where one aggregation per set reads and hashes it once per set; the repeated
 * rows are the finest groups, not input rows. {@code __set} keeps apart sets whose NULL-padded keys
 * coincide, and repeats a set listed twice, as SQL does.
 *
 * <p>Applies when every call merges from partials: sum, min and max of themselves, count and count(*)
 * as a sum of counts, avg (a double) as the sum of sums over the sum of counts. A set without expressions has one row even over no input (a
 * grand total): a guard row of NULL partials is added to those sets only, so each always has a group,
 * and a count there is 0, not NULL.
 */
final class SharedGroupingSetAggregate {
    private static final Set<AggregateFunction> MERGEABLE = EnumSet.of(AggregateFunction.SUM, AggregateFunction.COUNT,
            AggregateFunction.COUNT_STAR, AggregateFunction.MIN, AggregateFunction.MAX, AggregateFunction.AVG);
    private static final String SET = "__set";
    private static final String GUARD = "__guard";

    private SharedGroupingSetAggregate() {
    }

    /** Whether every call is a mergeable aggregate of a plain argument (not DISTINCT). */
    static boolean applies(List<Expr> calls) {
        for (Expr c : calls) {
            if (!(Exprs.unalias(c) instanceof AggregateCall call) || !MERGEABLE.contains(call.function())
                    || call.argument() instanceof Unevaluable || !call.options().isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** The plan; output as {@link GroupingSetPlans#plan}'s: the group-by columns, the calls, the grouping calls. */
    static LogicalPlan plan(LogicalPlan input, List<Expr> groupBy, List<List<Expr>> sets, List<Expr> calls,
            List<GroupingCall> groupingCalls) {
        Schema in = input.schema();
        List<Expr> partials = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            AggregateCall call = (AggregateCall) Exprs.unalias(calls.get(i));
            if (call.function() == AggregateFunction.AVG) {
                partials.add(new Alias(new AggregateCall(AggregateFunction.SUM, call.argument()), partial(i)));
                partials.add(new Alias(new AggregateCall(AggregateFunction.COUNT, call.argument()), partial(i) + "n"));
            } else {
                partials.add(new Alias(call, partial(i)));
            }
        }
        LogicalPlan finest = new Aggregate(input, groupBy, partials);
        List<Integer> empty = new ArrayList<>();
        for (int s = 0; s < sets.size(); s++) {
            if (sets.get(s).isEmpty()) {
                empty.add(s);
            }
        }
        if (!empty.isEmpty()) {
            finest = withGuardRow(finest);
        }
        List<Expr> ordinals = new ArrayList<>();
        for (int s = 0; s < sets.size(); s++) {
            ordinals.add(Literal.of((long) s));
        }
        LogicalPlan repeated = new Generate(finest, new ScalarFunction(ScalarFunction.Function.ARRAY, ordinals), false,
                List.of(SET));
        if (!empty.isEmpty()) {
            repeated = new Filter(repeated, new Binary(BinaryOp.OR, new Unary(Unary.Op.NOT, new Column(GUARD)), setIn(empty)));
        }

        List<Expr> padded = new ArrayList<>();
        List<Expr> keys = new ArrayList<>();
        for (Expr g : groupBy) {
            List<Integer> having = new ArrayList<>();
            for (int s = 0; s < sets.size(); s++) {
                if (sets.get(s).contains(g)) {
                    having.add(s);
                }
            }
            Column column = new Column(g.name());
            Literal absent = new Literal(null, g.type(in));
            padded.add(having.size() == sets.size() ? column
                    : new Alias(having.isEmpty() ? absent : new Case(List.of(setIn(having)), List.of(column), absent), g.name()));
            keys.add(column);
        }
        List<Expr> merges = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            padded.add(new Column(partial(i)));
            AggregateFunction function = ((AggregateCall) Exprs.unalias(calls.get(i))).function();
            AggregateFunction merge = switch (function) {
                case COUNT, COUNT_STAR, AVG -> AggregateFunction.SUM;
                default -> function;
            };
            merges.add(new Alias(new AggregateCall(merge, new Column(partial(i))), merged(i)));
            if (function == AggregateFunction.AVG) {
                padded.add(new Column(partial(i) + "n"));
                merges.add(new Alias(new AggregateCall(AggregateFunction.SUM, new Column(partial(i) + "n")), merged(i) + "n"));
            }
        }
        padded.add(new Column(SET));
        keys.add(new Column(SET));
        LogicalPlan aggregated = new Aggregate(new Projection(repeated, padded), keys, merges);

        Schema out = aggregated.schema();
        List<Expr> columns = new ArrayList<>();
        for (Expr g : groupBy) {
            columns.add(new Column(g.name()));
        }
        for (int i = 0; i < calls.size(); i++) {
            Expr call = calls.get(i);
            DataType type = call.type(in);
            Expr value = new Column(merged(i));
            AggregateFunction function = ((AggregateCall) Exprs.unalias(call)).function();
            if (!empty.isEmpty() && (function == AggregateFunction.COUNT || function == AggregateFunction.COUNT_STAR)) {
                value = new Case(List.of(new Unary(Unary.Op.IS_NULL, value)), List.of(Literal.of(0L)), value);
            } else if (function == AggregateFunction.AVG) {
                Expr count = new Column(merged(i) + "n");
                value = new Case(List.of(new Binary(BinaryOp.GT, count, Literal.of(0L))),
                        List.of(new Binary(BinaryOp.DIVIDE, new Cast(value, DataType.FLOAT64), new Cast(count, DataType.FLOAT64))),
                        new Literal(null, DataType.FLOAT64));
            }
            if (!value.type(out).equals(type)) {
                value = new Cast(value, type);
            }
            columns.add(new Alias(value, call.name()));
        }
        for (GroupingCall g : groupingCalls) {
            List<Expr> conditions = new ArrayList<>();
            List<Expr> results = new ArrayList<>();
            for (int s = 0; s < sets.size(); s++) {
                conditions.add(setIn(List.of(s)));
                results.add(Literal.of(g.valueFor(sets.get(s))));
            }
            columns.add(new Alias(new Case(conditions, results, Literal.of(0L)), g.name()));
        }
        return new Projection(aggregated, columns);
    }

    /**
     * The finest groups with {@code __guard} false, and one more row where it is true and every other
     * column is NULL; the guard row comes from a one-row relation, not from the input.
     */
    private static LogicalPlan withGuardRow(LogicalPlan finest) {
        List<Expr> marked = new ArrayList<>();
        List<Expr> guard = new ArrayList<>();
        for (var field : finest.schema().fields()) {
            marked.add(new Column(field.name()));
            guard.add(new Alias(new Literal(null, field.type()), field.name()));
        }
        marked.add(new Alias(Literal.of(false), GUARD));
        guard.add(new Alias(Literal.of(true), GUARD));
        LogicalPlan oneRow = new Aggregate(new EmptyRelation(new Schema(List.of())), List.of(),
                List.of(new AggregateCall(AggregateFunction.COUNT_STAR, null)));
        return new Union(List.of(new Projection(finest, marked), new Projection(oneRow, guard)));
    }

    private static Expr setIn(List<Integer> ordinals) {
        Expr out = null;
        for (int s : ordinals) {
            Expr is = new Binary(BinaryOp.EQ, new Column(SET), Literal.of((long) s));
            out = out == null ? is : new Binary(BinaryOp.OR, out, is);
        }
        return out;
    }

    private static String partial(int i) {
        return "__partial" + i;
    }

    private static String merged(int i) {
        return "__merged" + i;
    }
}
