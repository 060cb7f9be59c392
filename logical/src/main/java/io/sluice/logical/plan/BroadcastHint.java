package io.sluice.logical.plan;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The user's {@code /*+ BROADCAST(t) *}{@code /} on relation {@code input}: a join with it on a side
 * that can be built broadcasts that side whatever its estimated size or
 * {@code sluice.join.broadcast-threshold}. It changes no row.
 */
public record BroadcastHint(LogicalPlan input) implements RowPreservingMarker {
    public BroadcastHint {
        requireNonNull(input, "input is null");
    }

    @Override
    public LogicalPlan withNewChildren(List<LogicalPlan> children) {
        return new BroadcastHint(children.get(0));
    }

    @Override
    public String describe() {
        return "BroadcastHint";
    }

    /** Whether {@code plan} is a hinted relation, under projections, filters and aliases the optimizer put over it. */
    public static boolean hinted(LogicalPlan plan) {
        LogicalPlan p = plan;
        while (true) {
            if (p instanceof BroadcastHint) {
                return true;
            }
            if (p instanceof Projection || p instanceof Filter || p instanceof SubqueryAlias) {
                p = p.children().get(0);
            } else {
                return false;
            }
        }
    }
}
