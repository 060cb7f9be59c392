package io.sluice.operators;

import io.sluice.common.NodeMemo;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Traversals over physical plans. A plan is a DAG when an input is shared (a WITH query read twice):
 * the traversals here visit a shared node once.
 */
public final class ExecutionPlans {
    private ExecutionPlans() {
    }

    /**
     * Rewrites bottom-up; {@code fn} sees each node after its children were rewritten. A node
     * shared by several parents is rewritten once and its result shared, so {@code fn} must depend
     * on the node alone (it does for every caller: a rewrite, or a look that returns the node).
     */
    public static ExecutionPlan transformUp(ExecutionPlan plan, UnaryOperator<ExecutionPlan> fn) {
        return transformUp(plan, fn, new NodeMemo<>());
    }

    private static ExecutionPlan transformUp(ExecutionPlan plan, UnaryOperator<ExecutionPlan> fn,
            NodeMemo<ExecutionPlan, ExecutionPlan> memo) {
        return memo.get(plan, node -> fn.apply(mapChildren(node, child -> transformUp(child, fn, memo))));
    }

    /** The plan with {@code fn} applied to each child; the same instance when no child changed. */
    public static ExecutionPlan mapChildren(ExecutionPlan plan, UnaryOperator<ExecutionPlan> fn) {
        List<ExecutionPlan> children = plan.children();
        List<ExecutionPlan> rewritten = new ArrayList<>(children.size());
        boolean changed = false;
        for (ExecutionPlan child : children) {
            ExecutionPlan r = fn.apply(child);
            changed |= r != child;
            rewritten.add(r);
        }
        return changed ? plan.withNewChildren(rewritten) : plan;
    }

    /**
     * {@code replacement} with the estimate of {@code replaced} when a rule puts it in the place of
     * {@code replaced} (it then outputs the same rows); {@code replacement} itself when
     * {@code replaced} has none.
     */
    public static ExecutionPlan withEstimateOf(ExecutionPlan replaced, ExecutionPlan replacement) {
        long rows = replaced.estimatedRows();
        return rows == ExecutionPlan.UNKNOWN_ROWS || rows == replacement.estimatedRows() ? replacement
                : replacement.withEstimatedRows(rows);
    }

    /** Number of operators in the plan, a shared one counted once. */
    public static int count(ExecutionPlan plan) {
        int[] n = {0};
        transformUp(plan, node -> {
            n[0]++;
            return node;
        });
        return n[0];
    }
}
