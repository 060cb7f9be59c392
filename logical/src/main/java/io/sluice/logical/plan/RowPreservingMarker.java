package io.sluice.logical.plan;

import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.stats.Statistics;
import java.util.List;

/**
 * A node that marks its one input for the optimizer or planner and changes no row
 * ({@link BroadcastHint}, {@link SharedSubplan}): its schema, statistics and lack of expressions
 * are its input's, stated once here.
 */
public interface RowPreservingMarker extends LogicalPlan {
    LogicalPlan input();

    @Override
    default Schema schema() {
        return input().schema();
    }

    @Override
    default List<LogicalPlan> children() {
        return List.of(input());
    }

    @Override
    default List<Expr> expressions() {
        return List.of();
    }

    @Override
    default Statistics statistics(StatisticsContext context) {
        return context.of(input());
    }
}
