package io.sluice.optimizer.logical;

import io.sluice.plan.logical.LogicalPlan;

/** One logical rewrite. Returns the same instance when nothing applies. */
public interface LogicalRule {
    String name();

    LogicalPlan apply(LogicalPlan plan);
}
