package io.sluice.optimizer.physical;

import io.sluice.plan.physical.ExecutionPlan;

/** One physical optimizer rule. Rules read operators' declarative answers, never their classes. */
public interface PhysicalRule {
    String name();

    ExecutionPlan apply(ExecutionPlan plan, PhysicalConfig config);
}
