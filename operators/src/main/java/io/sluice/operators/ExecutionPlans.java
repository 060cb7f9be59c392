package io.sluice.operators;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/** Traversals over physical plan trees. */
public final class ExecutionPlans {
    private ExecutionPlans() {
    }

    /** Rewrites bottom-up; {@code fn} sees each node after its children were rewritten. */
    public static ExecutionPlan transformUp(ExecutionPlan plan, UnaryOperator<ExecutionPlan> fn) {
        List<ExecutionPlan> children = plan.children();
        if (!children.isEmpty()) {
            List<ExecutionPlan> rewritten = new ArrayList<>(children.size());
            boolean changed = false;
            for (ExecutionPlan child : children) {
                ExecutionPlan r = transformUp(child, fn);
                changed |= r != child;
                rewritten.add(r);
            }
            if (changed) {
                plan = plan.withNewChildren(rewritten);
            }
        }
        return fn.apply(plan);
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

    /** Number of operators in the tree. */
    public static int count(ExecutionPlan plan) {
        int n = 1;
        for (ExecutionPlan child : plan.children()) {
            n += count(child);
        }
        return n;
    }
}
