package io.sluice.optimizer.physical;

import io.sluice.plan.expr.SortKey;
import io.sluice.plan.operators.RepartitionExec;
import io.sluice.plan.operators.SortExec;
import io.sluice.plan.physical.Distribution;
import io.sluice.plan.physical.ExecutionPlan;
import io.sluice.plan.physical.Partitioning;
import java.util.ArrayList;
import java.util.List;

/**
 * Meets every operator's distribution and ordering requirements in one bottom-up pass: a child
 * whose output partitioning does not satisfy what its parent requires gets a repartition, then a
 * child whose order does not satisfy the required ordering gets a per-partition sort. Distribution
 * goes first because a repartition destroys order; a child that can take the sort below itself
 * ({@code tryPushdownSort}) does. An operator that its input's properties make a no-op (a sort of
 * sorted input) is removed ({@code removeIfRedundant}). Idempotent: on its own output every
 * requirement is met, so nothing is inserted or removed.
 */
public final class EnsureRequirements implements PhysicalRule {
    @Override
    public String name() {
        return "EnsureRequirements";
    }

    @Override
    public ExecutionPlan apply(ExecutionPlan plan, PhysicalConfig config) {
        List<ExecutionPlan> children = plan.children();
        if (children.isEmpty()) {
            return plan.removeIfRedundant().orElse(plan);
        }
        List<Distribution> distributions = plan.requiredInputDistribution();
        List<List<SortKey>> orderings = plan.requiredInputOrdering();
        List<ExecutionPlan> rewritten = new ArrayList<>(children.size());
        boolean changed = false;
        for (int i = 0; i < children.size(); i++) {
            ExecutionPlan original = children.get(i);
            ExecutionPlan child = apply(original, config);
            Distribution required = distributions.get(i);
            if (!child.properties().satisfies(required)) {
                child = new RepartitionExec(child, partitioningFor(required, config));
            }
            List<SortKey> ordering = orderings.get(i);
            if (!ordering.isEmpty() && !child.properties().orderingSatisfies(ordering)) {
                ExecutionPlan unsorted = child;
                child = child.tryPushdownSort(ordering, SortExec.NO_FETCH)
                        .orElseGet(() -> new SortExec(unsorted, ordering, SortExec.NO_FETCH, true));
            }
            changed |= child != original;
            rewritten.add(child);
        }
        ExecutionPlan result = changed ? plan.withNewChildren(rewritten) : plan;
        return result.removeIfRedundant().orElse(result);
    }

    static Partitioning partitioningFor(Distribution required, PhysicalConfig config) {
        if (required instanceof Distribution.SinglePartition) {
            return new Partitioning.Single();
        }
        if (required instanceof Distribution.KeyPartitioned keyed) {
            return keyed.keys().isEmpty() ? new Partitioning.Single()
                    : new Partitioning.Hash(keyed.keys(), config.shufflePartitions());
        }
        throw new IllegalStateException("no partitioning meets " + required);
    }
}
