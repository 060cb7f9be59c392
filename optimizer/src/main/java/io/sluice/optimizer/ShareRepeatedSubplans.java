package io.sluice.optimizer;

import io.sluice.common.NodeMemo;
import io.sluice.logical.plan.Aggregate;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.SharedSubplan;
import io.sluice.logical.plan.Window;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Marks each subplan that two or more parents read (a WITH query read by several consumers, a
 * DataFrame used twice: one node with several parents) and that is not cheap to recompute (it
 * aggregates, joins or computes a window) as a {@link SharedSubplan}, so it is computed once and
 * every consumer reads its output. It runs before filters are pushed: pushing each consumer's
 * filter into its own copy would make the copies differ, and each would read and aggregate the
 * input again. Cheap subplans (scans, filters, projections) stay inlined, where each consumer's
 * filter reaches its scan (and its partition pruning). Nodes are told apart by identity: the
 * plan is a DAG, walked once per node.
 */
public final class ShareRepeatedSubplans implements LogicalRule {
    @Override
    public String name() {
        return "ShareRepeatedSubplans";
    }

    @Override
    public LogicalPlan apply(LogicalPlan plan) {
        Map<LogicalPlan, Integer> parents = new IdentityHashMap<>();
        count(plan, parents);
        return new Walk(parents).share(plan);
    }

    /** Counts each node's parents (a node's own children are counted at its first visit only). */
    private static void count(LogicalPlan plan, Map<LogicalPlan, Integer> parents) {
        if (parents.merge(plan, 1, Integer::sum) > 1 || plan instanceof SharedSubplan) {
            return;
        }
        for (LogicalPlan child : plan.children()) {
            count(child, parents);
        }
    }

    private static final class Walk {
        private final Map<LogicalPlan, Integer> parents;
        private final NodeMemo<LogicalPlan, LogicalPlan> shared = new NodeMemo<>();
        private final NodeMemo<LogicalPlan, Boolean> costly = new NodeMemo<>();

        Walk(Map<LogicalPlan, Integer> parents) {
            this.parents = parents;
        }

        LogicalPlan share(LogicalPlan plan) {
            return shared.get(plan, this::shareNode);
        }

        private LogicalPlan shareNode(LogicalPlan plan) {
            if (plan instanceof SharedSubplan) {
                return plan;
            }
            LogicalPlan inside = withSharedChildren(plan);
            return parents.getOrDefault(plan, 0) > 1 && costly(plan) ? new SharedSubplan(inside) : inside;
        }

        private LogicalPlan withSharedChildren(LogicalPlan plan) {
            List<LogicalPlan> children = new ArrayList<>(plan.children().size());
            boolean changed = false;
            for (LogicalPlan child : plan.children()) {
                LogicalPlan out = share(child);
                changed |= out != child;
                children.add(out);
            }
            return changed ? plan.withNewChildren(children) : plan;
        }

        /** Whether recomputing {@code plan} per consumer would repeat an aggregation, a join or a window. */
        private boolean costly(LogicalPlan plan) {
            return costly.get(plan, p -> {
                if (p instanceof Aggregate || p instanceof Join || p instanceof Window) {
                    return true;
                }
                for (LogicalPlan child : p.children()) {
                    if (costly(child)) {
                        return true;
                    }
                }
                return false;
            });
        }
    }
}
