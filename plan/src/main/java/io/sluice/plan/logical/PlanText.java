package io.sluice.plan.logical;

/** Prints logical plans as indented trees, two spaces a level. */
final class PlanText {
    private PlanText() {
    }

    static void append(LogicalPlan plan, int depth, StringBuilder out) {
        out.append("  ".repeat(depth)).append(plan.describe()).append('\n');
        for (LogicalPlan child : plan.children()) {
            append(child, depth + 1, out);
        }
    }
}
