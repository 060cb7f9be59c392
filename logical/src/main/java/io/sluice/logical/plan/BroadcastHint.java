package io.sluice.logical.plan;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.stats.Statistics;
import java.util.List;

/**
 * The user's {@code /*+ BROADCAST(t) *}{@code /} on relation {@code input}: a join with it on a side
 * that can be built broadcasts that side whatever its estimated size or
 * {@code sluice.join.broadcast-threshold}. It changes no row.
 */
public record BroadcastHint(LogicalPlan input) implements LogicalPlan {
    public BroadcastHint {
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
        return new BroadcastHint(children.get(0));
    }

    @Override
    public List<Expr> expressions() {
        return List.of();
    }

    @Override
    public String describe() {
        return "BroadcastHint";
    }

    @Override
    public Statistics statistics(StatisticsContext context) {
        return context.of(input);
    }

    /** Whether {@code plan} is a hinted relation, under projections, filters and aliases the optimizer put over it. */
    public static boolean hinted(LogicalPlan plan) {
        LogicalPlan p = plan;
        while (true) {
            if (p instanceof BroadcastHint) {
                return true;
            }
            if (p instanceof Projection || p instanceof Filter || p instanceof SubqueryAlias) {
                p = p.children().get(0);
            } else {
                return false;
            }
        }
    }
}
