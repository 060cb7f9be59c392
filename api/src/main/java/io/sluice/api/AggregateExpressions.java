package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.Alias;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Spark's {@code agg(sum(a) / sum(b), avg(q) * 0.2)}: aggregates inside expressions. The aggregate
 * calls are computed by the aggregation under hidden names, and a projection above it evaluates each
 * expression over them, so the output is the keys and then one column per expression, by its name.
 */
record AggregateExpressions(List<Expr> calls, List<Expr> outputs) {
    private static final String HIDDEN = "__agg";

    AggregateExpressions {
        calls = List.copyOf(calls);
        outputs = List.copyOf(outputs);
    }

    /** Whether some of {@code aggregates} is more than a (named) aggregate call. */
    static boolean needed(List<Expr> aggregates) {
        return aggregates.stream().anyMatch(a -> !(Exprs.unalias(a) instanceof AggregateCall));
    }

    /** The calls to aggregate (each named) and the expressions to evaluate over them. */
    static AggregateExpressions split(List<Expr> aggregates) {
        List<Expr> calls = new ArrayList<>();
        List<Expr> outputs = new ArrayList<>();
        for (Expr a : aggregates) {
            Expr over = Exprs.transformUp(a, e -> {
                if (e instanceof AggregateCall) {
                    String name = HIDDEN + calls.size();
                    calls.add(new Alias(e, name));
                    return new Column(name);
                }
                return e;
            });
            outputs.add(a instanceof Alias || over.name().equals(a.name()) ? over : new Alias(over, a.name()));
        }
        return new AggregateExpressions(calls, outputs);
    }

    /** The keys of {@code aggregate} (its first {@code keys} columns) and then the expressions over its calls. */
    LogicalPlan project(LogicalPlan aggregate, int keys) {
        requireNonNull(aggregate, "aggregate is null");
        List<Expr> exprs = new ArrayList<>();
        for (int i = 0; i < keys; i++) {
            exprs.add(new Column(aggregate.schema().field(i).name()));
        }
        exprs.addAll(outputs);
        return new Projection(aggregate, exprs);
    }

    /** {@code aggregation} of the calls, then the projection of the expressions over them. */
    LogicalPlan plan(Function<List<Expr>, LogicalPlan> aggregation, int keys) {
        return project(aggregation.apply(calls), keys);
    }
}
