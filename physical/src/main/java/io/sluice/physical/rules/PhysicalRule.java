package io.sluice.physical.rules;

import io.sluice.operators.ExecutionPlan;

/** One physical optimizer rule. Rules read operators' declarative answers, never their classes. */
public interface PhysicalRule {
    String name();

    ExecutionPlan apply(ExecutionPlan plan, PhysicalConfig config);
}
