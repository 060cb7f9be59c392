package io.sluice.plan.logical;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.SluiceException;
import io.sluice.plan.expr.AggregateCall;
import io.sluice.plan.expr.Expr;
import io.sluice.plan.expr.Exprs;
import io.sluice.plan.types.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Groups by {@code groupBy} and computes {@code aggregates} (each an {@link AggregateCall}, maybe
 * aliased). Output: the grouping columns, then the aggregates.
 */
public record Aggregate(LogicalPlan input, List<Expr> groupBy, List<Expr> aggregates, Schema schema)
        implements LogicalPlan {
    public Aggregate {
        requireNonNull(schema, "schema is null");
        requireNonNull(input, "input is null");
        groupBy = List.copyOf(groupBy);
        aggregates = List.copyOf(aggregates);
        for (Expr g : groupBy) {
            if (Exprs.containsAggregate(g)) {
                throw new SluiceException("aggregate functions are not allowed in GROUP BY: " + g);
            }
        }
        for (Expr a : aggregates) {
            if (!(Exprs.unalias(a) instanceof AggregateCall)) {
                throw new IllegalArgumentException("not an aggregate call: " + a);
            }
        }
        Projection.schemaOf(input.schema(), concat(groupBy, aggregates));
    }

    /** Derives the schema once, here. */
    public Aggregate(LogicalPlan input, List<Expr> groupBy, List<Expr> aggregates) {
        this(input, groupBy, aggregates,
                Projection.schemaOf(requireNonNull(input, "input is null").schema(), concat(groupBy, aggregates)));
    }

    private static List<Expr> concat(List<Expr> a, List<Expr> b) {
        List<Expr> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    @Override
    public List<LogicalPlan> children() {
        return List.of(input);
    }

    @Override
    public LogicalPlan withNewChildren(List<LogicalPlan> children) {
        return new Aggregate(children.get(0), groupBy, aggregates);
    }

    @Override
    public List<Expr> expressions() {
        return concat(groupBy, aggregates);
    }

    @Override
    public String describe() {
        return "Aggregate: groupBy=[" + groupBy.stream().map(Expr::toString).collect(Collectors.joining(", "))
                + "], aggr=[" + aggregates.stream().map(Expr::toString).collect(Collectors.joining(", ")) + "]";
    }
}
