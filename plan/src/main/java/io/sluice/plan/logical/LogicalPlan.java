package io.sluice.plan.logical;

import io.sluice.plan.expr.Expr;
import io.sluice.plan.types.Schema;
import java.util.List;

/**
 * A node of the logical plan: immutable; constructors validate their expressions against the input
 * schema, so a plan that exists is well typed.
 */
public interface LogicalPlan {
    Schema schema();

    List<LogicalPlan> children();

    LogicalPlan withNewChildren(List<LogicalPlan> children);

    /** The expressions this node holds, for traversals and signatures. */
    List<Expr> expressions();

    /** One line: the node's name and arguments, without children. */
    String describe();

    /** The plan as an indented tree. */
    default String explain() {
        StringBuilder out = new StringBuilder();
        PlanText.append(this, 0, out);
        return out.toString();
    }
}
