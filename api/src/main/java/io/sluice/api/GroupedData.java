package io.sluice.api;

import io.sluice.plan.expr.Expr;
import io.sluice.plan.logical.Aggregate;
import io.sluice.plan.logical.LogicalPlan;
import java.util.Arrays;
import java.util.List;

/** A DataFrame grouped by keys, waiting for its aggregates. */
public final class GroupedData {
    private final Session session;
    private final LogicalPlan input;
    private final List<Expr> keys;

    GroupedData(Session session, LogicalPlan input, List<Expr> keys) {
        this.session = session;
        this.input = input;
        this.keys = List.copyOf(keys);
    }

    /** Output: the keys, then one column per aggregate (named by {@code as}, else by its SQL text). */
    public DataFrame agg(Column... aggregates) {
        return new DataFrame(session, new Aggregate(input, keys, Arrays.stream(aggregates).map(Column::expr).toList()));
    }
}
