package io.sluice.logical.plan;

import io.sluice.logical.expr.Expr;

/**
 * Prints logical plans as indented trees, two spaces a level. A subquery held in a node's
 * expressions prints under that node as {@code Subquery: <expr>} followed by its plan, before the
 * node's children.
 */
final class PlanText {
    private PlanText() {
    }

    static void append(LogicalPlan plan, int depth, StringBuilder out) {
        append(plan, depth, out, null);
    }

    /** With {@code statistics}, each node's line ends with its estimated rows: {@code [rows=~120]}. */
    static void append(LogicalPlan plan, int depth, StringBuilder out, StatisticsContext statistics) {
        out.append("  ".repeat(depth)).append(plan.describe());
        if (statistics != null) {
            out.append("  [rows=").append(statistics.of(plan).rows()).append(']');
        }
        out.append('\n');
        // Plans nested in expressions print under the node, before its children, in order of appearance.
        for (Expr e : plan.expressions()) {
            for (SubqueryExpr s : SubqueryExpr.in(e)) {
                out.append("  ".repeat(depth + 1)).append("Subquery: ").append(s).append('\n');
                append(s.subquery(), depth + 2, out, statistics);
            }
        }
        for (LogicalPlan child : plan.children()) {
            append(child, depth + 1, out, statistics);
        }
    }
}
