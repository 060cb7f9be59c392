package io.sluice.optimizer;

import io.sluice.common.NodeMemo;
import io.sluice.common.types.Schema;
import io.sluice.logical.plan.Aggregate;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Join;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.SharedSubplan;
import io.sluice.logical.plan.SubqueryAlias;
import io.sluice.logical.plan.TableScan;
import io.sluice.logical.plan.Window;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Marks each subplan that two or more parents read (a WITH query read by several consumers, a
 * DataFrame used twice: one node with several parents) and that is not cheap to recompute (it
 * aggregates, joins or computes a window) as a {@link SharedSubplan}, so it is computed once and
 * every consumer reads its output. It runs before filters are pushed: pushing each consumer's
 * filter into its own copy would make the copies differ, and each would read and aggregate the
 * input again. Cheap subplans (scans, filters, projections) stay inlined, where each consumer's
 * filter reaches its scan; so does a subplan over a partitioned table whose every consumer filters
 * on a partition column (by name), where each copy reads only its partitions. Nodes are told apart
 * by identity: the plan is a DAG, walked once per node.
 */
public final class ShareRepeatedSubplans implements LogicalRule {
    @Override
    public String name() {
        return "ShareRepeatedSubplans";
    }

    @Override
    public LogicalPlan apply(LogicalPlan plan) {
        Map<LogicalPlan, List<LogicalPlan>> parents = new IdentityHashMap<>();
        parents.put(plan, new ArrayList<>());
        collectParents(plan, parents);
        return new Walk(parents).share(plan);
    }

    /** Each node's parents, one entry per parent edge (a node's children are visited at its first visit only). */
    private static void collectParents(LogicalPlan plan, Map<LogicalPlan, List<LogicalPlan>> parents) {
        if (plan instanceof SharedSubplan) {
            return;
        }
        for (LogicalPlan child : plan.children()) {
            List<LogicalPlan> of = parents.get(child);
            boolean first = of == null;
            if (first) {
                of = new ArrayList<>(1);
                parents.put(child, of);
            }
            of.add(plan);
            if (first) {
                collectParents(child, parents);
            }
        }
    }

    private static final class Walk {
        private final Map<LogicalPlan, List<LogicalPlan>> parents;
        private final NodeMemo<LogicalPlan, LogicalPlan> shared = new NodeMemo<>();
        private final NodeMemo<LogicalPlan, Boolean> costly = new NodeMemo<>();

        Walk(Map<LogicalPlan, List<LogicalPlan>> parents) {
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
            boolean share = parents.getOrDefault(plan, List.of()).size() > 1 && costly(plan) && !prunedPerConsumer(plan);
            return share ? new SharedSubplan(inside) : inside;
        }

        /** Whether {@code plan} reads a partitioned table and every consumer filters on one of its partition columns. */
        private boolean prunedPerConsumer(LogicalPlan plan) {
            Set<String> columns = new HashSet<>();
            partitionColumns(plan, columns, Collections.newSetFromMap(new IdentityHashMap<>()));
            if (columns.isEmpty()) {
                return false;
            }
            for (LogicalPlan consumer : parents.get(plan)) {
                if (!filtersOn(consumer, columns)) {
                    return false;
                }
            }
            return true;
        }

        private static void partitionColumns(LogicalPlan plan, Set<String> out, Set<LogicalPlan> seen) {
            if (!seen.add(plan)) {
                return;
            }
            if (plan instanceof TableScan scan) {
                scan.source().partitionColumns().forEach(c -> out.add(c.toLowerCase(Locale.ROOT)));
            }
            plan.children().forEach(child -> partitionColumns(child, out, seen));
        }

        /** Whether the first node above {@code node} that is not an alias or a projection filters on one of {@code columns}. */
        private boolean filtersOn(LogicalPlan node, Set<String> columns) {
            LogicalPlan p = node;
            while (p instanceof SubqueryAlias || p instanceof Projection) {
                List<LogicalPlan> up = parents.getOrDefault(p, List.of());
                if (up.size() != 1) {
                    return false;
                }
                p = up.get(0);
            }
            if (!(p instanceof Filter filter)) {
                return false;
            }
            Schema schema = filter.input().schema();
            for (int i : PlanRewrites.columnIndexes(filter.predicate(), schema)) {
                if (columns.contains(SubqueryAlias.unqualified(schema.field(i).name()).toLowerCase(Locale.ROOT))) {
                    return true;
                }
            }
            return false;
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
