package io.sluice.physical.rules;

import io.sluice.common.NodeMemo;
import io.sluice.operators.CardinalityEffect;
import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.ExecutionPlans;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Moves limits down. A pure limit (an operator with a fetch that keeps its input's order and
 * columns) offers {@code skip + fetch} rows to its child: a child that supports limit pushdown
 * absorbs it ({@code withFetch}: a sort becomes a top-k, an exchange puts a local limit below
 * itself); a child whose {@code cardinalityEffect} is EQUAL and that keeps order passes the offer
 * on to its own child; any other child (a filter, an aggregate) stops it, since fewer input rows
 * would change its output. Runs after {@link EnsureRequirements}, so that exchanges exist.
 */
public final class LimitPushdown implements PhysicalRule {
    @Override
    public String name() {
        return "LimitPushdown";
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
        if (isPureLimit(plan)) {
            long rows = plan.skip() + plan.fetch().getAsLong();
            ExecutionPlan child = plan.children().get(0);
            ExecutionPlan pushed = push(child, rows);
            if (pushed != child) {
                plan = plan.withNewChildren(List.of(pushed));
                // The child may now limit on its own (a top-k in one partition): then this limit is a no-op.
                plan = plan.removeIfRedundant().orElse(plan);
            }
        }
        return ExecutionPlans.mapChildren(plan, child -> apply(child, done));
    }

    private static boolean isPureLimit(ExecutionPlan plan) {
        return plan.fetch().isPresent() && plan.children().size() == 1 && plan.maintainsInputOrder().get(0)
                && plan.schema().equals(plan.children().get(0).schema());
    }

    private static ExecutionPlan push(ExecutionPlan child, long rows) {
        OptionalLong existing = child.fetch();
        if (existing.isPresent() && existing.getAsLong() <= rows && child.skip() == 0) {
            return child;
        }
        if (child.supportsLimitPushdown()) {
            Optional<ExecutionPlan> absorbed = child.withFetch(rows);
            if (absorbed.isPresent()) {
                return absorbed.get();
            }
        }
        if (child.cardinalityEffect() == CardinalityEffect.EQUAL && child.children().size() == 1
                && child.maintainsInputOrder().get(0)) {
            ExecutionPlan grandChild = child.children().get(0);
            ExecutionPlan pushed = push(grandChild, rows);
            return pushed == grandChild ? child : child.withNewChildren(List.of(pushed));
        }
        return child;
    }
}
