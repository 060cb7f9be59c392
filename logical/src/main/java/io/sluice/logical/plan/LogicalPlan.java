package io.sluice.logical.plan;

import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.stats.Statistics;
import java.util.List;

/**
 * A node of the logical plan: immutable; constructors validate their expressions against the input
 * schema, so a plan that exists is well typed.
 */
public interface LogicalPlan {
    Schema schema();

    List<LogicalPlan> children();

    LogicalPlan withNewChildren(List<LogicalPlan> children);

    /** The expressions this node holds, for traversals and signatures. */
    List<Expr> expressions();

    /** One line: the node's name and arguments, without children. */
    String describe();

    /** The plan as an indented tree. */
    default String explain() {
        StringBuilder out = new StringBuilder();
        PlanText.append(this, 0, out);
        return out.toString();
    }

    /** The plan as an indented tree, each node with its estimated rows ({@code ~} when inexact). */
    default String explain(StatisticsContext statistics) {
        StringBuilder out = new StringBuilder();
        PlanText.append(this, 0, out, statistics);
        return out.toString();
    }

    /**
     * This node's estimated output statistics, from its inputs' (asked through {@code context},
     * which memoizes them). The default knows only that the output has at most as many rows as the
     * largest input; every node of the engine answers better.
     */
    default Statistics statistics(StatisticsContext context) {
        double rows = children().isEmpty() ? Statistics.DEFAULT_ROWS : 0;
        for (LogicalPlan child : children()) {
            rows = Math.max(rows, context.of(child).rowCount());
        }
        return Statistics.unknown(schema(), rows);
    }
}
