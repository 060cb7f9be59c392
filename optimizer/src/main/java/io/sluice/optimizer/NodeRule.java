package io.sluice.optimizer;

import static java.util.Objects.requireNonNull;

import io.sluice.logical.plan.LogicalPlan;
import java.util.ArrayList;
import java.util.List;

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

    /** The rule applied to every node of {@code plan}, in {@link #applyOrder()}. */
    @Override
    default LogicalPlan apply(LogicalPlan plan) {
        return rewrite(this, plan);
    }

    /** Walks {@code plan}, applying {@code rule} to each node in the order it declares. */
    static LogicalPlan rewrite(NodeRule rule, LogicalPlan plan) {
        requireNonNull(plan, "plan is null");
        return switch (rule.applyOrder()) {
            case TOP_DOWN -> topDown(rule, plan);
            case BOTTOM_UP -> bottomUp(rule, plan);
            case SELF -> throw new IllegalStateException(
                    "node rule " + rule.name() + " must apply TOP_DOWN or BOTTOM_UP, not SELF");
        };
    }

    private static LogicalPlan topDown(NodeRule rule, LogicalPlan plan) {
        LogicalPlan node = requireNonNull(rule.applyToNode(plan), () -> rule.name() + " returned null");
        return withRewrittenChildren(node, rule, true);
    }

    private static LogicalPlan bottomUp(NodeRule rule, LogicalPlan plan) {
        LogicalPlan node = withRewrittenChildren(plan, rule, false);
        return requireNonNull(rule.applyToNode(node), () -> rule.name() + " returned null");
    }

    /** {@code node} over its children rewritten; {@code node} itself when no child changed. */
    private static LogicalPlan withRewrittenChildren(LogicalPlan node, NodeRule rule, boolean topDown) {
        List<LogicalPlan> children = node.children();
        if (children.isEmpty()) {
            return node;
        }
        List<LogicalPlan> rewritten = null;
        for (int i = 0; i < children.size(); i++) {
            LogicalPlan child = children.get(i);
            LogicalPlan r = topDown ? topDown(rule, child) : bottomUp(rule, child);
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
