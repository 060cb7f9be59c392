package io.sluice.logical.plan;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TypeRules;
import io.sluice.logical.expr.AggregateCall;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.stats.ColumnStatistics;
import io.sluice.logical.stats.Estimate;
import io.sluice.logical.stats.ExpressionStatistics;
import io.sluice.logical.stats.Selectivity;
import io.sluice.logical.stats.Statistics;
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
            TypeRules.requireKeyable("a grouping key", g, g.type(input.schema()));
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

    /**
     * One row without grouping keys; else as many groups as the keys' distinct values combined (a
     * key of unknown distinct count counts as unique), at most the input's rows.
     */
    @Override
    public Statistics statistics(StatisticsContext context) {
        Statistics in = context.of(input);
        Schema inputSchema = input.schema();
        Estimate rows;
        if (groupBy.isEmpty()) {
            rows = Estimate.exact(1);
        } else {
            double groups = 1;
            for (Expr key : groupBy) {
                groups *= Selectivity.distinct(key, inputSchema, in, in.rowCount());
            }
            rows = Estimate.inexact(Math.min(groups, in.rowCount()));
        }
        List<ColumnStatistics> columns = new ArrayList<>();
        for (Expr key : groupBy) {
            columns.add(ExpressionStatistics.of(key, inputSchema, in).capped(rows.value()));
        }
        for (Expr aggregate : aggregates) {
            columns.add(ColumnStatistics.unknown(aggregate.type(inputSchema)));
        }
        return Statistics.of(rows, columns);
    }
}
