package io.sluice.logical.plan;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TypeRules;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.SortKey;
import io.sluice.logical.stats.Estimate;
import io.sluice.logical.stats.Statistics;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Orders all rows by {@code keys}. */
public record Sort(LogicalPlan input, List<SortKey> keys, long fetch) implements LogicalPlan {
    /** {@code fetch} when the sort keeps every row. */
    public static final long ALL = -1;

    public Sort(LogicalPlan input, List<SortKey> keys) {
        this(input, keys, ALL);
    }

    public Sort {
        requireNonNull(input, "input is null");
        if (fetch < ALL) {
            throw new IllegalArgumentException("bad sort fetch " + fetch);
        }
        keys = List.copyOf(keys);
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("sort needs a key");
        }
        for (SortKey k : keys) {
            if (Exprs.containsAggregate(k.expr())) {
                throw new SluiceException("aggregate " + k.expr() + " in ORDER BY of a query without it in the select list");
            }
            TypeRules.requireKeyable("a sort key", k.expr(), k.expr().type(input.schema()));
        }
    }

    @Override
    public Schema schema() {
        return input.schema();
    }

    @Override
    public List<LogicalPlan> children() {
        return List.of(input);
    }

    @Override
    public LogicalPlan withNewChildren(List<LogicalPlan> children) {
        return new Sort(children.get(0), keys, fetch);
    }

    @Override
    public List<Expr> expressions() {
        List<Expr> out = new ArrayList<>();
        keys.forEach(k -> out.add(k.expr()));
        return out;
    }

    @Override
    public String describe() {
        return "Sort: " + keys.stream().map(SortKey::toString).collect(Collectors.joining(", "))
                + (fetch == ALL ? "" : ", fetch=" + fetch);
    }

    /** The input's statistics, at most {@code fetch} rows. */
    @Override
    public Statistics statistics(StatisticsContext context) {
        Statistics in = context.of(input);
        return fetch == ALL || fetch >= in.rowCount() ? in : in.withRows(Estimate.exact(fetch).atMost(in.rowCount()));
    }
}
