package io.sluice.logical.plan;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.stats.Statistics;
import java.util.List;

/**
 * A subplan that several consumers read (a WITH query read twice, a repeated subquery), computed
 * once: every occurrence is this node over an equal input, and the optimizer treats it as a
 * boundary (no consumer's filter is pushed into it, its columns are not pruned per consumer), so the
 * occurrences stay equal and the stage cutter runs their map stage once and lets every consumer
 * read its shuffle. It changes no row.
 */
public record SharedSubplan(LogicalPlan input) implements LogicalPlan {
    public SharedSubplan {
        requireNonNull(input, "input is null");
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
        return new SharedSubplan(children.get(0));
    }

    @Override
    public List<Expr> expressions() {
        return List.of();
    }

    @Override
    public String describe() {
        return "SharedSubplan";
    }

    @Override
    public Statistics statistics(StatisticsContext context) {
        return context.of(input);
    }
}
