package io.sluice.operators;

import io.sluice.logical.expr.SortKey;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Prints physical plans as indented trees with each operator's partitioning, ordering and estimated
 * rows. An operator with inputs that is shared by several parents prints in full the first time and
 * as its line marked {@value #SHARED} after, so the text grows with the operators, not the paths.
 */
final class PhysicalPlanText {
    private PhysicalPlanText() {
    }

    /** The mark of a shared operator printed before. */
    static final String SHARED = "(shared: printed above)";

    static void append(ExecutionPlan plan, int depth, StringBuilder out) {
        append(plan, depth, out, Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    private static void append(ExecutionPlan plan, int depth, StringBuilder out, Set<ExecutionPlan> printed) {
        PlanProperties p = plan.properties();
        out.append("  ".repeat(depth)).append(plan.describe()).append("  [").append(p.partitioning());
        if (!p.ordering().isEmpty()) {
            out.append(", order=").append(p.ordering().stream().map(SortKey::toString).collect(Collectors.joining(", ")));
        }
        if (plan.estimatedRows() != ExecutionPlan.UNKNOWN_ROWS) {
            out.append(", est_rows=").append(plan.estimatedRows());
        }
        out.append(']');
        if (!plan.children().isEmpty() && !printed.add(plan)) {
            out.append("  ").append(SHARED).append('\n');
            return;
        }
        out.append('\n');
        for (ExecutionPlan child : plan.children()) {
            append(child, depth + 1, out, printed);
        }
    }
}
