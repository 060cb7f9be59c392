package io.sluice.logical.plan;

import io.sluice.logical.expr.Expr;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Prints logical plans as indented trees, two spaces a level. A subquery held in a node's
 * expressions prints under that node as {@code Subquery: <expr>} followed by its plan, before the
 * node's children. A node with inputs that is shared (a WITH query read twice) prints in full the
 * first time and as its line marked {@value #SHARED} after, so the text grows with the plan's
 * nodes, not with the paths through them (2^n for a chain of n WITH queries each read twice).
 */
final class PlanText {
    private PlanText() {
    }

    /** The mark of a shared node printed before. */
    static final String SHARED = "(shared: printed above)";

    static void append(LogicalPlan plan, int depth, StringBuilder out) {
        append(plan, depth, out, null);
    }

    /** With {@code statistics}, each node's line ends with its estimated rows: {@code [rows=~120]}. */
    static void append(LogicalPlan plan, int depth, StringBuilder out, StatisticsContext statistics) {
        append(plan, depth, out, statistics, Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    private static void append(LogicalPlan plan, int depth, StringBuilder out, StatisticsContext statistics,
            Set<LogicalPlan> printed) {
        out.append("  ".repeat(depth)).append(plan.describe());
        if (statistics != null) {
            out.append("  [rows=").append(statistics.of(plan).rows()).append(']');
        }
        if (!plan.children().isEmpty() && !printed.add(plan)) {
            out.append("  ").append(SHARED).append('\n');
            return;
        }
        out.append('\n');
        // Plans nested in expressions print under the node, before its children, in order of appearance.
        for (Expr e : plan.expressions()) {
            for (SubqueryExpr s : SubqueryExpr.in(e)) {
                out.append("  ".repeat(depth + 1)).append("Subquery: ").append(s).append('\n');
                append(s.subquery(), depth + 2, out, statistics, printed);
            }
        }
        for (LogicalPlan child : plan.children()) {
            append(child, depth + 1, out, statistics, printed);
        }
    }
}
