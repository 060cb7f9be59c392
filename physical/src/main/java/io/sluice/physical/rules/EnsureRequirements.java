package io.sluice.physical.rules;

import io.sluice.common.NodeMemo;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.Distribution;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.ExecutionPlans;
import io.sluice.operators.InputDistributionRequirements;
import io.sluice.operators.Partitioning;
import io.sluice.operators.PlanProperties;
import io.sluice.operators.SplitPoints;
import io.sluice.operators.basic.RepartitionExec;
import io.sluice.operators.sort.OrderedGatherExec;
import io.sluice.operators.sort.SortExec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Meets every operator's distribution and ordering requirements in one bottom-up pass: a child
 * whose output does not satisfy what its parent requires gets a repartition (hash, range, single
 * or broadcast), then a child whose order does not satisfy the required ordering gets a
 * per-partition sort. A child that must be in one partition but whose partitions are already in
 * range order and each sorted ({@code PlanProperties.concatenatedOrdering}) gets an ordered gather
 * instead of a plain one, so its order survives and a global sort above it becomes redundant.
 * Distribution goes first because a repartition destroys order; a child that
 * can take the sort below itself ({@code tryPushdownSort}) does. An operator that its input's
 * properties make a no-op (a sort of sorted input) is removed ({@code removeIfRedundant}).
 *
 * <h2>Co-partitioned inputs</h2>
 * When an operator requires its inputs co-partitioned (a partitioned join) and they are not, the
 * rule picks one common scheme and repartitions only the inputs that do not follow it:
 * <ul>
 *   <li>If some input already meets its requirement with a hash or range partitioning, that
 *       partitioning is <em>mirrored</em> onto the others: the same count (and, for range, the same
 *       {@link SplitPoints} set and key directions) over their corresponding keys. The input with
 *       the most partitions wins, the first on ties, so an existing shuffle is reused and
 *       parallelism is not lowered. A range set is mirrored only onto an input whose subtree does
 *       not use it already: the scheduler resolves a set once every stage writing it can run, and
 *       a stage that reads another writer of the same set would wait for itself.
 *   <li>Otherwise every input is repartitioned: hash with {@code sluice.shuffle.partitions}, or
 *       range over one shared, not yet resolved, split-point set that the scheduler binds into all
 *       their map stages before any of them runs.
 * </ul>
 * Equivalences count: an input hashed on {@code x} with {@code x = k} known meets a requirement
 * on {@code k} and is co-partitioned as if hashed on {@code k}.
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
        return apply(plan, config, new NodeMemo<>());
    }

    /** Each operator's requirements met once, however many parents share it. */
    private static ExecutionPlan apply(ExecutionPlan plan, PhysicalConfig config, NodeMemo<ExecutionPlan, ExecutionPlan> done) {
        return done.get(plan, node -> ensure(node, config, done));
    }

    private static ExecutionPlan ensure(ExecutionPlan plan, PhysicalConfig config, NodeMemo<ExecutionPlan, ExecutionPlan> done) {
        List<ExecutionPlan> children = plan.children();
        if (children.isEmpty()) {
            return plan.removeIfRedundant().orElse(plan);
        }
        List<Distribution> distributions = plan.requiredInputDistribution();
        List<List<SortKey>> orderings = plan.requiredInputOrdering();
        List<ExecutionPlan> inputs = new ArrayList<>(children.size());
        for (ExecutionPlan child : children) {
            inputs.add(apply(child, config, done));
        }
        List<ExecutionPlan> rewritten = plan.inputDistributionRequirements() == InputDistributionRequirements.CO_PARTITIONED && inputs.size() > 1
                ? coPartition(plan, inputs, distributions, config)
                : distribute(plan, inputs, distributions, config);
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

    /** Each input on its own: repartitioned when it does not satisfy its requirement. */
    private static List<ExecutionPlan> distribute(ExecutionPlan plan, List<ExecutionPlan> inputs,
            List<Distribution> required, PhysicalConfig config) {
        List<ExecutionPlan> out = new ArrayList<>(inputs.size());
        for (int i = 0; i < inputs.size(); i++) {
            ExecutionPlan input = inputs.get(i);
            PlanProperties props = input.properties();
            if (!props.satisfies(required.get(i))) {
                List<SortKey> ordered = props.concatenatedOrdering();
                if (required.get(i) instanceof Distribution.SinglePartition && !ordered.isEmpty()) {
                    // partitions in range order, each sorted: concatenating them keeps the order, which a gather would lose
                    input = new OrderedGatherExec(input, ordered);
                } else {
                    SplitPoints splits = SplitPoints.unresolved(splitId(plan));
                    input = new RepartitionExec(input, partitioningFor(required.get(i), config.shufflePartitions(), splits));
                }
            }
            out.add(input);
        }
        return out;
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

    /** Whether every input meets its requirement and all are partitioned alike on corresponding keys. */
    static boolean coPartitioned(List<ExecutionPlan> inputs, List<Distribution> required) {
        for (int i = 0; i < inputs.size(); i++) {
            if (!inputs.get(i).properties().satisfies(required.get(i))) {
                return false;
            }
        }
        ExecutionPlan first = inputs.get(0);
        for (int i = 1; i < inputs.size(); i++) {
            ExecutionPlan other = inputs.get(i);
            if (!Partitioning.coPartitioned(first.properties().partitioning(), alignedKeys(first, required.get(0)),
                    other.properties().partitioning(), alignedKeys(other, required.get(i)))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The required keys of {@code input}, each replaced by the partitioning key of {@code input}
     * that is known equal to it, if any: so that an input hashed on {@code x} where {@code x = k}
     * pairs with the other input's key corresponding to {@code k}.
     */
    private static List<Expr> alignedKeys(ExecutionPlan input, Distribution required) {
        PlanProperties props = input.properties();
        List<Expr> partitionKeys = partitionKeys(props.partitioning());
        List<Expr> out = new ArrayList<>();
        for (Expr k : keysOf(required)) {
            Expr aligned = k;
            if (!partitionKeys.contains(k)) {
                Expr rep = props.representative(k);
                for (Expr p : partitionKeys) {
                    if (props.representative(p).equals(rep)) {
                        aligned = p;
                        break;
                    }
                }
            }
            out.add(aligned);
        }
        return out;
    }

    private static List<Expr> partitionKeys(Partitioning p) {
        if (p instanceof Partitioning.Hash h) {
            return h.keys();
        }
        if (p instanceof Partitioning.Range r) {
            return r.keys().stream().map(SortKey::expr).toList();
        }
        return List.of();
    }

    private static List<ExecutionPlan> coPartition(ExecutionPlan plan, List<ExecutionPlan> inputs,
            List<Distribution> required, PhysicalConfig config) {
        if (coPartitioned(inputs, required)) {
            return new ArrayList<>(inputs);
        }
        List<Partitioning> targets = mirroredTargets(inputs, required).orElse(null);
        if (targets == null) {
            SplitPoints shared = SplitPoints.unresolved(splitId(plan));
            targets = new ArrayList<>();
            for (Distribution d : required) {
                targets.add(partitioningFor(d, config.shufflePartitions(), shared));
            }
        }
        List<ExecutionPlan> out = new ArrayList<>(inputs.size());
        for (int i = 0; i < inputs.size(); i++) {
            ExecutionPlan input = inputs.get(i);
            Partitioning target = targets.get(i);
            out.add(target == null || input.properties().partitioning().equals(target) ? input
                    : new RepartitionExec(input, target));
        }
        return out;
    }

    /**
     * One partitioning per input copied from the input that already meets its requirement with the
     * most partitions (null for that input: it stays), or empty when no input's partitioning can
     * be mirrored onto all the others.
     */
    private static Optional<List<Partitioning>> mirroredTargets(List<ExecutionPlan> inputs, List<Distribution> required) {
        List<Partitioning> best = null;
        int bestCount = 0;
        for (int r = 0; r < inputs.size(); r++) {
            PlanProperties props = inputs.get(r).properties();
            Partitioning reference = props.partitioning();
            if (!props.satisfies(required.get(r)) || reference.partitionCount() <= Math.max(1, bestCount)) {
                continue;
            }
            List<Expr> fromKeys = alignedKeys(inputs.get(r), required.get(r));
            List<Partitioning> targets = new ArrayList<>();
            for (int j = 0; j < inputs.size() && targets != null; j++) {
                if (j == r) {
                    targets.add(null);
                    continue;
                }
                Optional<Partitioning> mirrored = mirror(reference, fromKeys, keysOf(required.get(j)));
                if (mirrored.isEmpty() || !mirrored.get().satisfies(required.get(j))
                        || usesSplitsOf(inputs.get(j), reference)) {
                    targets = null;
                } else {
                    targets.add(mirrored.get());
                }
            }
            if (targets != null) {
                best = targets;
                bestCount = reference.partitionCount();
            }
        }
        return Optional.ofNullable(best);
    }

    /** {@code p} moved from keys {@code from} to the corresponding keys {@code to}, if p is keyed on them. */
    private static Optional<Partitioning> mirror(Partitioning p, List<Expr> from, List<Expr> to) {
        if (!(p instanceof Partitioning.Hash) && !(p instanceof Partitioning.Range)) {
            return Optional.empty();
        }
        Partitioning mapped = p.mapKeys(k -> {
            int i = from.indexOf(k);
            return i < 0 ? Optional.empty() : Optional.of(to.get(i));
        });
        return mapped.equals(new Partitioning.Unknown(p.partitionCount())) ? Optional.empty() : Optional.of(mapped);
    }

    /** Whether {@code plan} or anything below it is range-partitioned over the split points of {@code p}. */
    private static boolean usesSplitsOf(ExecutionPlan plan, Partitioning p) {
        if (!(p instanceof Partitioning.Range range)) {
            return false;
        }
        boolean[] uses = {false};
        ExecutionPlans.transformUp(plan, node -> {
            uses[0] |= node.properties().partitioning() instanceof Partitioning.Range r
                    && r.splits().id().equals(range.splits().id());
            return node;
        });
        return uses[0];
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
     * A split-point id for the range inputs of one operator, derived from the operator and the
     * subtree below it as planned, so that optimizing again gives the same plan. Hashing only the
     * operator's own line would give two joins with equal keys (one above the other) the same set;
     * the scheduler, which resolves a set once all its writers can run, would then wait on a stage
     * that reads from another writer of the set. Identical subtrees sharing a set is harmless.
     */
    private static String splitId(ExecutionPlan plan) {
        long h = 0xcbf29ce484222325L;
        String text = plan.explain();
        for (int i = 0; i < text.length(); i++) {
            h ^= text.charAt(i);
            h *= 0x100000001b3L;
        }
        return "range-" + Long.toHexString(h);
    }
}
