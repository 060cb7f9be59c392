package io.sluice.plan.logical;

import io.sluice.plan.expr.Expr;
import io.sluice.plan.expr.Exprs;
import io.sluice.plan.expr.SubqueryExpr;

/**
 * Prints logical plans as indented trees, two spaces a level. A subquery held in a node's
 * expressions prints under that node as {@code Subquery: <expr>} followed by its plan, before the
 * node's children.
 */
final class PlanText {
    private PlanText() {
    }

    static void append(LogicalPlan plan, int depth, StringBuilder out) {
        out.append("  ".repeat(depth)).append(plan.describe()).append('\n');
        // Plans nested in expressions print under the node, before its children, in order of appearance.
        for (Expr e : plan.expressions()) {
            for (SubqueryExpr s : Exprs.subqueries(e)) {
                out.append("  ".repeat(depth + 1)).append("Subquery: ").append(s).append('\n');
                append(s.subquery(), depth + 2, out);
            }
        }
        for (LogicalPlan child : plan.children()) {
            append(child, depth + 1, out);
        }
    }
}
