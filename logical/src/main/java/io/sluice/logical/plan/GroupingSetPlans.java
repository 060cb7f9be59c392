package io.sluice.logical.plan;

import io.sluice.common.SluiceException;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Cast;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.GroupingCall;
import io.sluice.logical.expr.Literal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Grouping sets (SQL's {@code GROUPING SETS}, {@code ROLLUP}, {@code CUBE}; the DataFrame's
 * {@code rollup} and {@code cube}) as one aggregation per set, united: each outputs every group-by
 * expression, NULL where its set lacks it, so the union has the columns a single aggregation by all
 * of them would have; where the calls allow, all sets may come from one aggregation of the input
 * ({@link SharedGroupingSetAggregate}), chosen or not by the optimizer ({@link GroupingSetChoice}). The SQL front end and the DataFrame API both plan them here.
 */
public final class GroupingSetPlans {
    /** The most expressions of a cube (2^n sets). */
    public static final int MAX_CUBE = 12;

    private GroupingSetPlans() {
    }

    /** {@code ROLLUP (k1, ..., kn)}: every prefix, longest first, down to the empty set. */
    public static List<List<Expr>> rollup(List<Expr> keys) {
        List<List<Expr>> out = new ArrayList<>();
        for (int n = keys.size(); n >= 0; n--) {
            out.add(List.copyOf(keys.subList(0, n)));
        }
        return out;
    }

    /** {@code CUBE (k1, ..., kn)}: every subset, all keys first, down to the empty set. */
    public static List<List<Expr>> cube(List<Expr> keys) {
        if (keys.size() > MAX_CUBE) {
            throw new SluiceException("a CUBE of more than " + MAX_CUBE + " expressions is not supported (" + keys.size() + ")");
        }
        List<List<Expr>> out = new ArrayList<>();
        for (int mask = (1 << keys.size()) - 1; mask >= 0; mask--) {
            List<Expr> chosen = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                if ((mask & (1 << (keys.size() - 1 - i))) != 0) {
                    chosen.add(keys.get(i));
                }
            }
            out.add(chosen);
        }
        return out;
    }

    /**
     * One pass when every call merges from partials ({@link SharedGroupingSetAggregate}), offered
     * beside one aggregation per set ({@link GroupingSetChoice}: the optimizer chooses from the finest
     * grouping's estimated size); otherwise one aggregation per set ({@code aggregate} builds it:
     * group-by columns, then the calls), each padded to all of {@code groupBy} with typed NULLs,
     * united; each {@code grouping(...)} call is a constant column per set ({@link GroupingCall#valueFor}).
     */
    public static LogicalPlan plan(LogicalPlan input, List<Expr> groupBy, List<List<Expr>> sets, List<Expr> calls,
            List<GroupingCall> groupingCalls, BiFunction<List<Expr>, List<Expr>, LogicalPlan> aggregate) {
        LogicalPlan perSet = perSet(input, groupBy, sets, calls, groupingCalls, aggregate);
        if (sets.size() > 1 && !groupBy.isEmpty() && SharedGroupingSetAggregate.applies(calls)) {
            LogicalPlan onePass = SharedGroupingSetAggregate.plan(input, groupBy, sets, calls, groupingCalls);
            return onePass.schema().equals(perSet.schema())
                    ? new GroupingSetChoice(onePass, perSet, new Aggregate(input, groupBy, List.of()))
                    : onePass;
        }
        return perSet;
    }

    private static LogicalPlan perSet(LogicalPlan input, List<Expr> groupBy, List<List<Expr>> sets, List<Expr> calls,
            List<GroupingCall> groupingCalls, BiFunction<List<Expr>, List<Expr>, LogicalPlan> aggregate) {
        List<LogicalPlan> inputs = new ArrayList<>();
        for (List<Expr> set : sets) {
            LogicalPlan aggregated = aggregate.apply(set, calls);
            List<Expr> columns = new ArrayList<>();
            for (Expr g : groupBy) {
                columns.add(set.contains(g) ? new Column(g.name())
                        : new Alias(new Cast(Literal.nullValue(), g.type(input.schema())), g.name()));
            }
            for (Expr call : calls) {
                columns.add(new Column(call.name()));
            }
            for (GroupingCall g : groupingCalls) {
                columns.add(new Alias(Literal.of(g.valueFor(set)), g.name()));
            }
            inputs.add(new Projection(aggregated, columns));
        }
        return inputs.size() == 1 ? inputs.get(0) : Union.coerced(inputs);
    }
}
