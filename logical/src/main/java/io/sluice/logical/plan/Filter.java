package io.sluice.logical.plan;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TypeRules;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Column;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Exprs;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.stats.ColumnStatistics;
import io.sluice.logical.stats.Estimate;
import io.sluice.logical.stats.Selectivity;
import io.sluice.logical.stats.Statistics;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Keeps the rows for which {@code predicate} is true (not false, not NULL). */
public record Filter(LogicalPlan input, Expr predicate) implements LogicalPlan {
    public Filter {
        requireNonNull(input, "input is null");
        requireNonNull(predicate, "predicate is null");
        if (Exprs.containsAggregate(predicate)) {
            throw new SluiceException("aggregate functions are not allowed in WHERE: " + predicate);
        }
        if (Exprs.containsWindow(predicate)) {
            throw new SluiceException("window functions are not allowed in a filter: " + predicate
                    + " (filter on a window's output in an enclosing query)");
        }
        TypeRules.checkBoolean("filter predicate " + predicate, predicate.type(input.schema()));
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
        return new Filter(children.get(0), predicate);
    }

    @Override
    public List<Expr> expressions() {
        return List.of(predicate);
    }

    @Override
    public String describe() {
        return "Filter: " + predicate;
    }

    /**
     * The input's statistics scaled by the predicate's {@link Selectivity} (at least one row unless
     * it keeps none); a column compared equal to a constant has that one value, and a column other
     * conjuncts read alone keeps their share of its distinct values.
     */
    /** The index of the one column {@code conjunct} reads, or -1. */
    private static int singleColumn(Expr conjunct, Schema schema) {
        Set<String> columns = Exprs.columns(conjunct);
        if (columns.size() != 1 || !SubqueryExpr.in(conjunct).isEmpty()) {
            return -1;
        }
        try {
            return schema.indexOf(columns.iterator().next());
        } catch (SluiceException ambiguous) {
            return -1;
        }
    }

    @Override
    public Statistics statistics(StatisticsContext context) {
        Statistics in = context.of(input);
        Schema schema = input.schema();
        double selectivity = Selectivity.of(predicate, schema, in);
        // A filter that may keep rows is assumed to keep at least one.
        double rows = selectivity == 0 ? 0 : Math.min(in.rowCount(), Math.max(1, in.rowCount() * selectivity));
        Statistics out = in.withRows(Estimate.inexact(rows));
        List<ColumnStatistics> columns = new ArrayList<>(out.columns());
        for (Expr conjunct : Exprs.conjuncts(predicate)) {
            int index = singleColumn(conjunct, schema);
            if (index < 0) {
                continue;
            }
            if (conjunct instanceof Binary b && b.op() == BinaryOp.EQ && b.left() instanceof Column
                    && b.right() instanceof Literal l && l.value() != null
                    && l.type().equals(schema.field(index).type())) {
                columns.set(index, ColumnStatistics.constant(l.value(), l.type(), rows));
            } else {
                // A predicate on one column keeps about its share of that column's distinct values.
                ColumnStatistics c = columns.get(index);
                double share = Selectivity.of(conjunct, schema, in);
                if (c.distinctCount().isKnown()) {
                    columns.set(index, c.withDistinctCount(Estimate.inexact(
                            Math.min(c.distinctCount().value(), Math.max(1, in.column(index).distinctCount().orElse(0) * share)))));
                }
            }
        }
        return Statistics.of(out.rows(), columns);
    }
}
