package io.sluice.plan.physical;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.expr.SortKey;
import java.util.List;

/**
 * Facts about an operator's output that never change for an instance, computed once at construction.
 * {@code ordering} is the order rows have within each partition (empty when unknown).
 */
public record PlanProperties(Partitioning partitioning, List<SortKey> ordering, boolean bounded) {
    public PlanProperties {
        requireNonNull(partitioning, "partitioning is null");
        ordering = List.copyOf(ordering);
    }

    public static PlanProperties of(Partitioning partitioning) {
        return new PlanProperties(partitioning, List.of(), true);
    }

    public static PlanProperties of(Partitioning partitioning, List<SortKey> ordering) {
        return new PlanProperties(partitioning, ordering, true);
    }

    /** Whether rows in each partition are already ordered by {@code required} (a prefix suffices). */
    public boolean orderingSatisfies(List<SortKey> required) {
        if (required.size() > ordering.size()) {
            return false;
        }
        for (int i = 0; i < required.size(); i++) {
            if (!required.get(i).equals(ordering.get(i))) {
                return false;
            }
        }
        return true;
    }
}
