package io.sluice.logical.plan;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.stats.Statistics;
import java.util.List;

/**
 * Two plans of the same grouping sets, to be chosen between once statistics are known: {@code
 * onePass} aggregates the input once by every expression and repeats those finest groups per set
 * ({@link SharedGroupingSetAggregate}), {@code perSet} aggregates the input once per set. One pass
 * reads the input once but aggregates the finest groups times the sets again; when the finest
 * grouping is nearly as fine as the input (ROLLUP over a key), that is more work than reading the
 * input once per set. {@link #chosen} decides from {@code finest} (the input grouped by every
 * expression, no calls), whose estimated rows are the finest groups; the optimizer replaces the
 * node by its choice, and a planner that meets it unchosen plans {@code onePass}.
 *
 * <p>Both plans have the same columns (names and types), which are this node's.
 */
public record GroupingSetChoice(LogicalPlan onePass, LogicalPlan perSet, Aggregate finest) implements LogicalPlan {
    /** One pass while the finest groups are estimated at most this share of the input rows. */
    public static final double ONE_PASS_MAX_FINEST_SHARE = 0.5;

    public GroupingSetChoice {
        requireNonNull(onePass, "onePass is null");
        requireNonNull(perSet, "perSet is null");
        requireNonNull(finest, "finest is null");
        if (!onePass.schema().equals(perSet.schema())) {
            throw new IllegalArgumentException("grouping set plans differ in columns: " + onePass.schema() + " and "
                    + perSet.schema());
        }
    }

    /** {@code onePass} unless the finest grouping is estimated above {@link #ONE_PASS_MAX_FINEST_SHARE} of the input rows. */
    public LogicalPlan chosen(StatisticsContext statistics) {
        double inputRows = statistics.of(finest.input()).rowCount();
        double finestGroups = statistics.of(finest).rowCount();
        return finestGroups > ONE_PASS_MAX_FINEST_SHARE * inputRows ? perSet : onePass;
    }

    @Override
    public Schema schema() {
        return onePass.schema();
    }

    @Override
    public List<LogicalPlan> children() {
        return List.of(onePass, perSet);
    }

    @Override
    public LogicalPlan withNewChildren(List<LogicalPlan> children) {
        return new GroupingSetChoice(children.get(0), children.get(1), finest);
    }

    @Override
    public List<Expr> expressions() {
        return List.of();
    }

    @Override
    public String describe() {
        return "GroupingSetChoice: groupBy=" + finest.groupBy();
    }

    @Override
    public Statistics statistics(StatisticsContext context) {
        return context.of(onePass);
    }
}
