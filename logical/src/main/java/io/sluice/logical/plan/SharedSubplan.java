package io.sluice.logical.plan;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A subplan that several consumers read (a WITH query read twice, a repeated subquery), computed
 * once: every occurrence is this node over an equal input, and the optimizer treats it as a
 * boundary (no consumer's filter is pushed into it, its columns are not pruned per consumer), so the
 * occurrences stay equal and the stage cutter runs their map stage once and lets every consumer
 * read its shuffle. It changes no row.
 */
public record SharedSubplan(LogicalPlan input) implements RowPreservingMarker {
    public SharedSubplan {
        requireNonNull(input, "input is null");
    }

    @Override
    public LogicalPlan withNewChildren(List<LogicalPlan> children) {
        return new SharedSubplan(children.get(0));
    }

    @Override
    public String describe() {
        return "SharedSubplan";
    }
}
