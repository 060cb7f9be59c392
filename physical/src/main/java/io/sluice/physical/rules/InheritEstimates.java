package io.sluice.physical.rules;

import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.ExecutionPlans;

/**
 * Gives every operator the planner did not estimate (a repartition or sort that
 * {@link EnsureRequirements} inserted, a top-k or local limit from {@link LimitPushdown}, a
 * projection a swap put below its child) an estimate from its children: the sum of theirs (an
 * exchange, sort or projection moves rows without adding or dropping any), at most
 * {@code fetch} rows per partition for an operator that limits. Estimates the planner set stay.
 * Runs after the rules that insert operators, so that EXPLAIN prints a number on every line.
 */
public final class InheritEstimates implements PhysicalRule {
    @Override
    public String name() {
        return "InheritEstimates";
    }

    @Override
    public ExecutionPlan apply(ExecutionPlan plan, PhysicalConfig config) {
        return ExecutionPlans.transformUp(plan, InheritEstimates::inherit);
    }

    private static ExecutionPlan inherit(ExecutionPlan node) {
        if (node.estimatedRows() != ExecutionPlan.UNKNOWN_ROWS || node.children().isEmpty()) {
            return node;
        }
        long rows = 0;
        for (ExecutionPlan child : node.children()) {
            if (child.estimatedRows() == ExecutionPlan.UNKNOWN_ROWS) {
                return node;
            }
            rows += child.estimatedRows();
        }
        if (node.fetch().isPresent()) {
            long perPartition = node.fetch().getAsLong();
            long partitions = node.properties().partitioning().partitionCount();
            rows = Math.min(rows, perPartition > Long.MAX_VALUE / Math.max(1, partitions) ? rows : perPartition * partitions);
        }
        return node.withEstimatedRows(rows);
    }
}
