package io.sluice.optimizer.physical;

import io.sluice.plan.expr.Expr;
import io.sluice.plan.expr.SortKey;
import io.sluice.plan.operators.RepartitionExec;
import io.sluice.plan.operators.SortExec;
import io.sluice.plan.physical.Distribution;
import io.sluice.plan.physical.ExecutionPlan;
import io.sluice.plan.physical.Partitioning;
import io.sluice.plan.physical.SplitPoints;
import java.util.ArrayList;
import java.util.List;

/**
 * Meets every operator's distribution and ordering requirements in one bottom-up pass: a child
 * whose output does not satisfy what its parent requires gets a repartition (hash, range, single
 * or broadcast), then a child whose order does not satisfy the required ordering gets a
 * per-partition sort. Distribution goes first because a repartition destroys order; a child that
 * can take the sort below itself ({@code tryPushdownSort}) does. When an operator requires its
 * inputs co-partitioned (a partitioned join), inputs that are not get repartitioned alike: hash
 * with one partition count, or range over one shared, not yet resolved, {@link SplitPoints} set
 * that the scheduler binds before the map stages run. An operator that its input's properties make
 * a no-op (a sort of sorted input) is removed ({@code removeIfRedundant}).
 *
 * <p>Idempotent: on its own output every requirement is met, so nothing is inserted or removed.
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
        for (int i = 0; i < children.size(); i++) {
            ExecutionPlan child = apply(children.get(i), config);
            Distribution required = distributions.get(i);
            if (!child.properties().satisfies(required)) {
                child = new RepartitionExec(child, partitioningFor(plan, required, config.shufflePartitions()));
            }
            rewritten.add(child);
        }
        if (plan.requiresCoPartitionedInputs() && !coPartitioned(rewritten, distributions)) {
            rewritten = coPartition(plan, rewritten, distributions, config);
        }
        boolean changed = false;
        for (int i = 0; i < rewritten.size(); i++) {
            ExecutionPlan child = rewritten.get(i);
            List<SortKey> ordering = orderings.get(i);
            if (!ordering.isEmpty() && !child.properties().orderingSatisfies(ordering)) {
                ExecutionPlan unsorted = child;
                child = child.tryPushdownSort(ordering, SortExec.NO_FETCH)
                        .orElseGet(() -> new SortExec(unsorted, ordering, SortExec.NO_FETCH, true));
                rewritten.set(i, child);
            }
            changed |= child != children.get(i);
        }
        ExecutionPlan result = changed ? plan.withNewChildren(rewritten) : plan;
        return result.removeIfRedundant().orElse(result);
    }

    /** The keys a distribution partitions by (empty for single, broadcast, unspecified). */
    static List<Expr> keysOf(Distribution d) {
        if (d instanceof Distribution.KeyPartitioned k) {
            return k.keys();
        }
        if (d instanceof Distribution.RangePartitioned r) {
            return r.keys().stream().map(SortKey::expr).toList();
        }
        return List.of();
    }

    static boolean coPartitioned(List<ExecutionPlan> children, List<Distribution> required) {
        for (int i = 1; i < children.size(); i++) {
            if (!Partitioning.coPartitioned(children.get(0).properties().partitioning(), keysOf(required.get(0)),
                    children.get(i).properties().partitioning(), keysOf(required.get(i)))) {
                return false;
            }
        }
        return true;
    }

    /** Repartitions every input that does not match the common target (input 0's hash count, if it fits). */
    private static List<ExecutionPlan> coPartition(ExecutionPlan plan, List<ExecutionPlan> children,
            List<Distribution> required, PhysicalConfig config) {
        int count = config.shufflePartitions();
        Partitioning first = children.get(0).properties().partitioning();
        if (first instanceof Partitioning.Hash hash && hash.keys().equals(keysOf(required.get(0)))) {
            count = hash.partitionCount();
        }
        SplitPoints shared = SplitPoints.unresolved(splitId(plan));
        List<ExecutionPlan> out = new ArrayList<>(children.size());
        for (int i = 0; i < children.size(); i++) {
            ExecutionPlan child = children.get(i);
            Partitioning target = partitioningFor(required.get(i), count, shared);
            if (!child.properties().partitioning().equals(target)) {
                child = new RepartitionExec(child, target);
            }
            out.add(child);
        }
        return out;
    }

    private static Partitioning partitioningFor(ExecutionPlan plan, Distribution required, int count) {
        return partitioningFor(required, count, SplitPoints.unresolved(splitId(plan)));
    }

    static Partitioning partitioningFor(Distribution required, int count, SplitPoints splits) {
        if (required instanceof Distribution.SinglePartition) {
            return new Partitioning.Single();
        }
        if (required instanceof Distribution.Broadcast) {
            return new Partitioning.Broadcast();
        }
        if (required instanceof Distribution.KeyPartitioned keyed) {
            return keyed.keys().isEmpty() ? new Partitioning.Single() : new Partitioning.Hash(keyed.keys(), count);
        }
        if (required instanceof Distribution.RangePartitioned ranged) {
            return new Partitioning.Range(ranged.keys(), splits, count);
        }
        throw new IllegalStateException("no partitioning meets " + required);
    }

    /**
     * A split-point id for the range inputs of one operator: derived from what the operator is, so
     * that optimizing again gives the same plan. Two identical operators sharing an id is harmless:
     * the scheduler resolves one boundary set from all the inputs that use it.
     */
    private static String splitId(ExecutionPlan plan) {
        long h = 0xcbf29ce484222325L;
        String text = plan.describe();
        for (int i = 0; i < text.length(); i++) {
            h ^= text.charAt(i);
            h *= 0x100000001b3L;
        }
        return "range-" + Long.toHexString(h);
    }
}
