package io.sluice.logical.plan;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.stats.ColumnStatistics;
import io.sluice.logical.stats.ExpressionStatistics;
import io.sluice.logical.stats.Statistics;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Computes one output column per expression, named by {@link Expr#name()}. */
public record Projection(LogicalPlan input, List<Expr> exprs, Schema schema) implements LogicalPlan {
    public Projection {
        requireNonNull(schema, "schema is null");
        requireNonNull(input, "input is null");
        exprs = List.copyOf(exprs);
        if (exprs.isEmpty()) {
            throw new SluiceException("a projection needs at least one column");
        }
        for (Expr e : exprs) {
            if (Exprs.containsAggregate(e)) {
                throw new SluiceException("aggregate " + e + " outside an aggregation");
            }
            if (Exprs.containsWindow(e)) {
                throw new IllegalArgumentException("window function " + e + " in a projection, not a window node");
            }
        }
        schemaOf(input.schema(), exprs);
    }

    /** Derives the schema once, here. */
    public Projection(LogicalPlan input, List<Expr> exprs) {
        this(input, exprs, schemaOf(requireNonNull(input, "input is null").schema(), exprs));
    }

    static Schema schemaOf(Schema input, List<Expr> exprs) {
        List<Field> fields = new ArrayList<>(exprs.size());
        for (Expr e : exprs) {
            fields.add(new Field(e.name(), e.type(input)));
        }
        return new Schema(fields);
    }

    @Override
    public List<LogicalPlan> children() {
        return List.of(input);
    }

    @Override
    public LogicalPlan withNewChildren(List<LogicalPlan> children) {
        return new Projection(children.get(0), exprs);
    }

    @Override
    public List<Expr> expressions() {
        return exprs;
    }

    @Override
    public String describe() {
        return "Projection: " + exprs.stream().map(Expr::toString).collect(Collectors.joining(", "));
    }

    /** The input's rows; each column's statistics from its expression's. */
    @Override
    public Statistics statistics(StatisticsContext context) {
        Statistics in = context.of(input);
        List<ColumnStatistics> columns = new ArrayList<>(exprs.size());
        for (Expr e : exprs) {
            columns.add(ExpressionStatistics.of(e, input.schema(), in));
        }
        return Statistics.of(in.rows(), columns);
    }
}
