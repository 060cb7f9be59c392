package io.sluice.optimizer;

import io.sluice.logical.plan.LogicalPlan;

/**
 * One logical rewrite. {@link #apply} returns the same instance when nothing applies: the
 * optimizer's trace and the rules' tests rely on it.
 *
 * <p>A rule either recurses over the plan itself ({@link ApplyOrder#SELF}, the default: for rules
 * that carry state down the tree, like column pruning) or is a {@link NodeRule} that rewrites one
 * node at a time and lets the optimizer walk the tree in the order it declares.
 */
public interface LogicalRule {
    /** How a rule is applied to a whole plan. */
    enum ApplyOrder {
        /** A node first, then the children of whatever it was rewritten to. */
        TOP_DOWN,
        /** The children first, then the node (rebuilt over its rewritten children). */
        BOTTOM_UP,
        /** The rule's own {@link #apply} walks the plan. */
        SELF
    }

    String name();

    /** {@link ApplyOrder#SELF} unless the rule is a {@link NodeRule}. */
    default ApplyOrder applyOrder() {
        return ApplyOrder.SELF;
    }

    /** The whole plan rewritten; the same instance when nothing applies. */
    LogicalPlan apply(LogicalPlan plan);
}
