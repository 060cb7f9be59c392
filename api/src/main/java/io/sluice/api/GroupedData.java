package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.logical.expr.Expr;
import io.sluice.logical.plan.Aggregate;
import java.util.Arrays;
import java.util.List;

/** A DataFrame grouped by keys, waiting for its aggregates. */
public final class GroupedData {
    private final DataFrame input;
    private final List<Expr> keys;

    GroupedData(DataFrame input, List<Expr> keys) {
        this.input = requireNonNull(input, "input is null");
        this.keys = List.copyOf(keys);
    }

    /** Output: the keys, then one column per aggregate (named by {@code as}, else by its SQL text). */
    public DataFrame agg(Column... aggregates) {
        return input.derive(new Aggregate(input.logicalPlan(), keys, Arrays.stream(aggregates).map(Column::expr).toList()));
    }
}
