package io.sluice.physical;

import static java.util.Objects.requireNonNull;

import io.sluice.operators.ExecutionPlan;
import io.sluice.physical.rules.EnsureRequirements;
import io.sluice.physical.rules.FilterPushdownRule;
import io.sluice.physical.rules.InheritEstimates;
import io.sluice.physical.rules.LimitPushdown;
import io.sluice.physical.rules.PhysicalConfig;
import io.sluice.physical.rules.PhysicalRule;
import io.sluice.physical.rules.ProjectionPushdown;
import io.sluice.physical.rules.SanityCheckPlan;
import java.util.List;

/**
 * Runs the physical rules in order: projection and filter pushdown on the exchange-free plan,
 * {@link EnsureRequirements}, then {@link LimitPushdown} (which needs the exchanges),
 * {@link InheritEstimates} for the operators those added, and {@link SanityCheckPlan} last.
 */
public final class PhysicalOptimizer {
    private final List<PhysicalRule> rules;

    public PhysicalOptimizer(List<PhysicalRule> rules) {
        this.rules = List.copyOf(requireNonNull(rules, "rules is null"));
    }

    public static PhysicalOptimizer standard() {
        return new PhysicalOptimizer(List.of(new ProjectionPushdown(), new FilterPushdownRule(), new EnsureRequirements(),
                new LimitPushdown(), new InheritEstimates(), new SanityCheckPlan()));
    }

    public ExecutionPlan optimize(ExecutionPlan plan, PhysicalConfig config) {
        for (PhysicalRule rule : rules) {
            plan = rule.apply(plan, config);
        }
        return plan;
    }
}
