package io.sluice.optimizer;

import io.sluice.common.NodeMemo;
import io.sluice.logical.plan.Aggregate;
import io.sluice.logical.plan.EmptyRelation;
import io.sluice.logical.plan.Filter;
import io.sluice.logical.plan.Limit;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.Projection;
import io.sluice.logical.plan.Sort;
import io.sluice.logical.plan.SubqueryAlias;
import io.sluice.logical.plan.Union;
import java.util.ArrayList;
import java.util.List;

/**
 * Moves limits towards the scans, so less is read and computed:
 *
 * <ul>
 *   <li>through a projection or a subquery alias (one output row per input row);
 *   <li>into each input of a union all as {@code Limit(offset + fetch)}, keeping the limit above
 *       (which still applies the offset and the overall bound); an input known to have no more
 *       rows than that (it ends in such a limit, is empty, or is a global aggregate) gets none;
 *   <li>a limit over a limit merges into one: the offsets add up, and the fetch is what the upper
 *       one leaves of the lower one;
 *   <li>into a sort below it as a top-k: the sort keeps only its first {@code offset + fetch}
 *       rows ({@code Sort.fetch}), and the limit stays above to apply the offset.
 * </ul>
 *
 * <p>
 * Guarantees: the rows are the same (a limit without ORDER BY promises no particular rows, and each
 * union input still offers at least as many rows as the limit above can take); a plan with nothing
 * to move comes back as the same instance.
 */
public final class PushDownLimit implements NodeRule {
    @Override
    public String name() {
        return "PushDownLimit";
    }

    /** Bottom-up, like {@link PushDownFilter}: a limit is pushed all the way down by {@link #applyToNode}. */
    @Override
    public ApplyOrder applyOrder() {
        return ApplyOrder.BOTTOM_UP;
    }

    /** Each limit pushed onto a node, by the node and the limit: once however often the node is shared. */
    private final NodeMemo<LogicalPlan, LogicalPlan> pushed = new NodeMemo<>();

    /** The rows a limit asks of the node below it. */
    private record Demand(long offset, long fetch) {
    }

    @Override
    public NodeRule forOneWalk() {
        return new PushDownLimit();
    }

    @Override
    public LogicalPlan applyToNode(LogicalPlan node) {
        return node instanceof Limit l ? pushOnce(l) : node;
    }

    /** A new {@code limit} pushed as far down as it goes; once per input and limit in one walk. */
    private LogicalPlan push(Limit limit) {
        return pushed.get(limit.input(), new Demand(limit.offset(), limit.fetch()), () -> pushOnce(limit));
    }

    private LogicalPlan pushOnce(Limit limit) {
        LogicalPlan child = limit.input();
        if (child instanceof Projection || child instanceof SubqueryAlias) {
            LogicalPlan below = push(new Limit(child.children().get(0), limit.offset(), limit.fetch()));
            return child.withNewChildren(List.of(below));
        }
        if (child instanceof Limit lower) {
            long offset = saturatedAdd(lower.offset(), limit.offset());
            long fetch = Math.max(0, Math.min(limit.fetch(), lower.fetch() - limit.offset()));
            return push(new Limit(lower.input(), offset, fetch));
        }
        if (child instanceof Sort sort) {
            long bound = saturatedAdd(limit.offset(), limit.fetch());
            if (sort.fetch() != Sort.ALL && sort.fetch() <= bound) {
                return limit;
            }
            return new Limit(new Sort(sort.input(), sort.keys(), bound), limit.offset(), limit.fetch());
        }
        if (child instanceof Union u) {
            long bound = saturatedAdd(limit.offset(), limit.fetch());
            List<LogicalPlan> inputs = new ArrayList<>(u.inputs().size());
            boolean changed = false;
            for (LogicalPlan input : u.inputs()) {
                if (maxRows(input) <= bound) {
                    inputs.add(input);
                } else {
                    inputs.add(push(new Limit(input, 0, bound)));
                    changed = true;
                }
            }
            return changed ? new Limit(new Union(inputs), limit.offset(), limit.fetch()) : limit;
        }
        return limit;
    }

    /** An upper bound on the rows {@code plan} outputs, known from its limits ({@code MAX_VALUE}: none). */
    private static long maxRows(LogicalPlan plan) {
        if (plan instanceof Limit l) {
            return Math.min(l.fetch(), maxRows(l.input()));
        }
        if (plan instanceof EmptyRelation) {
            return 0;
        }
        if (plan instanceof Aggregate a && a.groupBy().isEmpty()) {
            return 1;
        }
        if (plan instanceof Sort s && s.fetch() != Sort.ALL) {
            return Math.min(s.fetch(), maxRows(s.input()));
        }
        if (plan instanceof Projection || plan instanceof SubqueryAlias || plan instanceof Filter || plan instanceof Sort) {
            return maxRows(plan.children().get(0));
        }
        return Long.MAX_VALUE;
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }
}
