package io.sluice.optimizer;

import static java.util.Objects.requireNonNull;

import io.sluice.logical.plan.LogicalPlan;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * A rule that rewrites one node at a time; the optimizer walks the plan in {@link #applyOrder()}
 * ({@link ApplyOrder#TOP_DOWN} or {@link ApplyOrder#BOTTOM_UP}, never {@code SELF}), so the rule
 * holds no traversal code and every such rule walks the plan the same way.
 *
 * <p>Contract of {@link #applyToNode}: it looks at {@code node} and the subtree below it, and returns
 * either {@code node} itself (nothing to do) or a replacement for that subtree with the same schema
 * (names and types). A replacement may restructure the subtree (push a filter below its child,
 * say). Bottom-up, a node is offered after its children were rewritten, and the replacement is not
 * offered again in the same walk. Top-down, a node is offered before its children, and the walk then
 * continues into the replacement's children (not into the replacement itself). Either way each
 * position is visited once per walk; whatever one walk leaves for a later one the optimizer's
 * fixed-point loop picks up. (So a top-down rule must not wrap a node in a new parent that keeps the
 * node as a child and would match again: the walk would offer it forever.)
 *
 * <p>Guarantees of the walk ({@link #rewrite}): a parent is rebuilt (with
 * {@link LogicalPlan#withNewChildren}) only when one of its children changed, so a plan in which no
 * node changes comes back as the very same instance, and unchanged subtrees are shared between the
 * input and the output.
 */
public interface NodeRule extends LogicalRule {
    /** {@code node} rewritten, or {@code node} itself when the rule does not apply to it. */
    LogicalPlan applyToNode(LogicalPlan node);

    /** {@link ApplyOrder#TOP_DOWN} or {@link ApplyOrder#BOTTOM_UP}. */
    @Override
    ApplyOrder applyOrder();

    /**
     * The rule as used for one walk: itself, or a fresh copy when the rule keeps state for the
     * walk (a memo of what it pushed into a shared node), so walks never see each other's state.
     */
    default NodeRule forOneWalk() {
        return this;
    }

    /** The rule applied to every node of {@code plan}, in {@link #applyOrder()}. */
    @Override
    default LogicalPlan apply(LogicalPlan plan) {
        return rewrite(this, plan);
    }

    /**
     * Walks {@code plan}, applying {@code rule} to each node in the order it declares. A node shared
     * by several parents (a WITH query read twice) is rewritten once: its rewrite depends on it
     * alone, so every parent gets the same result, and a chain of shared nodes costs its size, not
     * the number of paths through it.
     */
    static LogicalPlan rewrite(NodeRule rule, LogicalPlan plan) {
        requireNonNull(plan, "plan is null");
        boolean topDown = switch (rule.applyOrder()) {
            case TOP_DOWN -> true;
            case BOTTOM_UP -> false;
            case SELF -> throw new IllegalStateException(
                    "node rule " + rule.name() + " must apply TOP_DOWN or BOTTOM_UP, not SELF");
        };
        return walk(rule.forOneWalk(), plan, topDown, new IdentityHashMap<>());
    }

    private static LogicalPlan walk(NodeRule rule, LogicalPlan plan, boolean topDown,
            Map<LogicalPlan, LogicalPlan> rewritten) {
        LogicalPlan known = rewritten.get(plan);
        if (known != null) {
            return known;
        }
        LogicalPlan result;
        if (topDown) {
            LogicalPlan node = requireNonNull(rule.applyToNode(plan), () -> rule.name() + " returned null");
            result = withRewrittenChildren(node, rule, true, rewritten);
        } else {
            LogicalPlan node = withRewrittenChildren(plan, rule, false, rewritten);
            result = requireNonNull(rule.applyToNode(node), () -> rule.name() + " returned null");
        }
        rewritten.put(plan, result);
        return result;
    }

    /** {@code node} over its children rewritten; {@code node} itself when no child changed. */
    private static LogicalPlan withRewrittenChildren(LogicalPlan node, NodeRule rule, boolean topDown,
            Map<LogicalPlan, LogicalPlan> memo) {
        List<LogicalPlan> children = node.children();
        if (children.isEmpty()) {
            return node;
        }
        List<LogicalPlan> rewritten = null;
        for (int i = 0; i < children.size(); i++) {
            LogicalPlan child = children.get(i);
            LogicalPlan r = walk(rule, child, topDown, memo);
            if (r != child && rewritten == null) {
                rewritten = new ArrayList<>(children);
            }
            if (rewritten != null) {
                rewritten.set(i, r);
            }
        }
        return rewritten == null ? node : node.withNewChildren(rewritten);
    }
}
