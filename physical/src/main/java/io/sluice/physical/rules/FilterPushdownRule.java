package io.sluice.physical.rules;

import io.sluice.common.NodeMemo;
import io.sluice.logical.expr.Expr;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.ExecutionPlans;
import io.sluice.operators.FilterPushdown;
import java.util.List;

/**
 * Moves filters down by negotiation: top-down, an operator that offers filters
 * ({@code gatherFiltersForPushdown}) offers them to its child ({@code pushFilters}); the child answers
 * with its new plan and the filters it did not fully take, and the offering operator keeps only
 * those ({@code handleChildPushdownResult}) — disappearing when none remain. A Parquet scan takes
 * filters partly: it prunes row groups, and the filter stays above.
 */
public final class FilterPushdownRule implements PhysicalRule {
    @Override
    public String name() {
        return "FilterPushdown";
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
        List<Expr> offered = plan.gatherFiltersForPushdown();
        if (!offered.isEmpty() && plan.children().size() == 1) {
            ExecutionPlan child = plan.children().get(0);
            FilterPushdown answer = child.pushFilters(offered);
            if (answer.plan() != child || !answer.remaining().equals(offered)) {
                // the rewritten operator outputs what this one did, so it keeps this one's estimate
                ExecutionPlan rewritten = ExecutionPlans.withEstimateOf(plan,
                        plan.handleChildPushdownResult(ExecutionPlans.withEstimateOf(child, answer.plan()),
                                answer.remaining()));
                if (!rewritten.equals(plan)) {
                    return apply(rewritten, done);
                }
            }
        }
        return ExecutionPlans.mapChildren(plan, child -> apply(child, done));
    }
}
