package io.sluice.operators;

import io.sluice.logical.expr.SortKey;
import java.util.stream.Collectors;

/** Prints physical plans as indented trees with each operator's partitioning, ordering and estimated rows. */
final class PhysicalPlanText {
    private PhysicalPlanText() {
    }

    static void append(ExecutionPlan plan, int depth, StringBuilder out) {
        PlanProperties p = plan.properties();
        out.append("  ".repeat(depth)).append(plan.describe()).append("  [").append(p.partitioning());
        if (!p.ordering().isEmpty()) {
            out.append(", order=").append(p.ordering().stream().map(SortKey::toString).collect(Collectors.joining(", ")));
        }
        if (plan.estimatedRows() != ExecutionPlan.UNKNOWN_ROWS) {
            out.append(", est_rows=").append(plan.estimatedRows());
        }
        out.append("]\n");
        for (ExecutionPlan child : plan.children()) {
            append(child, depth + 1, out);
        }
    }
}
