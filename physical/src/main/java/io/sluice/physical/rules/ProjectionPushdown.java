package io.sluice.physical.rules;

import io.sluice.common.NodeMemo;
import io.sluice.logical.expr.Expr;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.ExecutionPlans;
import java.util.List;
import java.util.Optional;

/**
 * Moves projections down: top-down, an operator that offers a projection
 * ({@code projectionForPushdown}) is replaced by its child's {@code trySwappingWithProjection}
 * answer when the child has one (a scan reads fewer columns, an exchange moves fewer bytes).
 */
public final class ProjectionPushdown implements PhysicalRule {
    @Override
    public String name() {
        return "ProjectionPushdown";
    }

    @Override
    public ExecutionPlan apply(ExecutionPlan plan, PhysicalConfig config) {
        return apply(plan, new NodeMemo<>());
    }

    /** Each operator rewritten once, however many parents share it. */
    private ExecutionPlan apply(ExecutionPlan plan, NodeMemo<ExecutionPlan, ExecutionPlan> done) {
        return done.get(plan, node -> rewrite(node, done));
    }

    private ExecutionPlan rewrite(ExecutionPlan plan, NodeMemo<ExecutionPlan, ExecutionPlan> done) {
        List<Expr> projection = plan.projectionForPushdown();
        if (!projection.isEmpty() && plan.children().size() == 1) {
            Optional<ExecutionPlan> swapped = plan.children().get(0).trySwappingWithProjection(projection);
            if (swapped.isPresent()) {
                // the swapped plan outputs what the projection did: it keeps the projection's estimate
                return apply(ExecutionPlans.withEstimateOf(plan, swapped.get()), done);
            }
        }
        return ExecutionPlans.mapChildren(plan, child -> apply(child, done));
    }
}
