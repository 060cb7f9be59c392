package io.sluice.sql;

import io.sluice.logical.plan.LogicalPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSetOperator;

/**
 * Plans UNION, INTERSECT and EXCEPT over inputs planned by the caller, through
 * {@link io.sluice.logical.plan.SetOperations} (which the DataFrame API uses too).
 */
final class SetOperations {
    private SetOperations() {
    }

    /** Whether {@code node} is a UNION, INTERSECT or EXCEPT. */
    static boolean isSetOperation(SqlNode node) {
        return switch (node.getKind()) {
            case UNION, INTERSECT, EXCEPT -> true;
            default -> false;
        };
    }

    /**
     * {@code UNION ALL} is a {@link io.sluice.logical.plan.Union} of every input of the chain;
     * {@code UNION} the distinct rows of such a union; INTERSECT and EXCEPT, distinct or ALL, as
     * {@link io.sluice.logical.plan.SetOperations} builds them.
     */
    static LogicalPlan plan(SqlCall call, Function<SqlNode, LogicalPlan> translate) {
        boolean all = ((SqlSetOperator) call.getOperator()).isAll();
        if (call.getKind() != SqlKind.UNION) {
            return io.sluice.logical.plan.SetOperations.intersectOrExcept(translate.apply(call.operand(0)),
                    translate.apply(call.operand(1)), call.getKind() == SqlKind.INTERSECT, all);
        }
        List<SqlNode> leaves = new ArrayList<>();
        unionLeaves(call, all, leaves);
        List<LogicalPlan> inputs = new ArrayList<>(leaves.size());
        for (SqlNode leaf : leaves) {
            inputs.add(translate.apply(leaf));
        }
        return io.sluice.logical.plan.SetOperations.union(inputs, all);
    }

    /**
     * The inputs of a chain of unions. A distinct union also absorbs the inputs of the unions below it
     * (distinct or not: duplicates go anyway); a union all only those of unions all.
     */
    private static void unionLeaves(SqlCall union, boolean all, List<SqlNode> out) {
        for (SqlNode operand : union.getOperandList()) {
            if (operand.getKind() == SqlKind.UNION && operand instanceof SqlCall child
                    && (!all || ((SqlSetOperator) child.getOperator()).isAll())) {
                unionLeaves(child, all, out);
            } else {
                out.add(operand);
            }
        }
    }
}
