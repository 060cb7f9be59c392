package io.sluice.optimizer;

import io.sluice.common.types.BinaryOp;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.LogicalPlan;

/**
 * Merges a filter into the filter below it: {@code Filter(Filter(x, a), b)} becomes
 * {@code Filter(x, a AND b)}, one pass over the rows instead of two. Both keep the rows for which
 * both predicates are true, so the rows are the same; the lower predicate stays first. Otherwise the
 * same instance comes back.
 */
public final class MergeFilters implements NodeRule {
    @Override
    public String name() {
        return "MergeFilters";
    }

    @Override
    public ApplyOrder applyOrder() {
        return ApplyOrder.BOTTOM_UP;
    }

    /** Bottom-up, so a chain of filters collapses into one in a single walk. */
    @Override
    public LogicalPlan applyToNode(LogicalPlan plan) {
        if (plan instanceof Filter upper && upper.input() instanceof Filter lower) {
            return new Filter(lower.input(), new Binary(BinaryOp.AND, lower.predicate(), upper.predicate()));
        }
        return plan;
    }
}
