package io.sluice.physical.rules;

import io.sluice.logical.expr.SortKey;
import io.sluice.operators.Distribution;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.ExecutionPlans;
import io.sluice.operators.InputDistributionRequirements;
import java.util.List;

/**
 * The last rule, read-only: fails if any operator's distribution or ordering requirement is unmet,
 * naming the operator, the child and the requirement. A failure here is an optimizer bug.
 */
public final class SanityCheckPlan implements PhysicalRule {
    @Override
    public String name() {
        return "SanityCheckPlan";
    }

    @Override
    public ExecutionPlan apply(ExecutionPlan plan, PhysicalConfig config) {
        ExecutionPlans.transformUp(plan, node -> {
            check(node);
            return node;
        });
        return plan;
    }

    /** One operator's requirements of its inputs (each shared operator checked once). */
    private static void check(ExecutionPlan plan) {
        List<ExecutionPlan> children = plan.children();
        List<Distribution> distributions = plan.requiredInputDistribution();
        List<List<SortKey>> orderings = plan.requiredInputOrdering();
        for (int i = 0; i < children.size(); i++) {
            ExecutionPlan child = children.get(i);
            if (!child.properties().satisfies(distributions.get(i))) {
                throw new IllegalStateException("operator '" + plan.describe() + "' requires " + distributions.get(i)
                        + " of child " + i + " '" + child.describe() + "', which is " + child.properties().partitioning());
            }
            if (!child.properties().orderingSatisfies(orderings.get(i))) {
                throw new IllegalStateException("operator '" + plan.describe() + "' requires ordering " + orderings.get(i)
                        + " of child " + i + " '" + child.describe() + "', which has " + child.properties().ordering());
            }
        }
        if (plan.inputDistributionRequirements() == InputDistributionRequirements.CO_PARTITIONED
                && !EnsureRequirements.coPartitioned(children, distributions)) {
            throw new IllegalStateException("operator '" + plan.describe() + "' requires co-partitioned inputs, but they are "
                    + children.stream().map(c -> c.properties().partitioning().toString()).toList());
        }
    }
}
