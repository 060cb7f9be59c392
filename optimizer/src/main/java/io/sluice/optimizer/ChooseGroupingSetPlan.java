package io.sluice.optimizer;

import static java.util.Objects.requireNonNull;

import io.sluice.logical.plan.GroupingSetChoice;
import io.sluice.logical.plan.LogicalPlan;
import io.sluice.logical.plan.StatisticsContext;
import java.util.function.Supplier;

/**
 * Replaces each {@link GroupingSetChoice} by the plan it chooses from estimates: grouping sets from
 * one pass over the input, unless the finest grouping is nearly as fine as the input (then the
 * repeated finest groups outnumber what one aggregation per set reads). It runs before the rules
 * that push filters and prune columns, so they see one plan; the choice never changes an answer.
 */
public final class ChooseGroupingSetPlan implements NodeRule {
    private final Supplier<StatisticsContext> statistics;

    /** A rule whose estimates come from {@code statistics} (a fresh context per node). */
    public ChooseGroupingSetPlan(Supplier<StatisticsContext> statistics) {
        this.statistics = requireNonNull(statistics, "statistics is null");
    }

    @Override
    public String name() {
        return "ChooseGroupingSetPlan";
    }

    @Override
    public ApplyOrder applyOrder() {
        return ApplyOrder.BOTTOM_UP;
    }

    @Override
    public LogicalPlan applyToNode(LogicalPlan node) {
        return node instanceof GroupingSetChoice choice ? choice.chosen(statistics.get()) : node;
    }
}
