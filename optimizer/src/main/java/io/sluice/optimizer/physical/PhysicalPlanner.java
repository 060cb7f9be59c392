package io.sluice.optimizer.physical;

import io.sluice.plan.logical.Aggregate;
import io.sluice.plan.logical.Filter;
import io.sluice.plan.logical.Limit;
import io.sluice.plan.logical.LogicalPlan;
import io.sluice.plan.logical.Projection;
import io.sluice.plan.logical.Sort;
import io.sluice.plan.logical.TableScan;
import io.sluice.plan.operators.FileScanExec;
import io.sluice.plan.operators.FilterExec;
import io.sluice.plan.operators.HashAggregateExec;
import io.sluice.plan.operators.LimitExec;
import io.sluice.plan.operators.ProjectionExec;
import io.sluice.plan.operators.SortExec;
import io.sluice.plan.physical.ExecutionPlan;

/**
 * Turns a logical plan into operators, without exchanges: each operator states what it needs of
 * its inputs and {@link EnsureRequirements} adds the repartitions and sorts.
 */
public final class PhysicalPlanner {
    public ExecutionPlan plan(LogicalPlan plan) {
        if (plan instanceof TableScan scan) {
            return FileScanExec.create(scan.source(), scan.schema().names());
        }
        if (plan instanceof Filter filter) {
            return new FilterExec(plan(filter.input()), filter.predicate());
        }
        if (plan instanceof Projection projection) {
            return new ProjectionExec(plan(projection.input()), projection.exprs());
        }
        if (plan instanceof Aggregate aggregate) {
            HashAggregateExec partial = HashAggregateExec.partial(plan(aggregate.input()), aggregate.groupBy(),
                    aggregate.aggregates());
            return HashAggregateExec.finalPhase(partial, partial);
        }
        if (plan instanceof Sort sort) {
            return new SortExec(plan(sort.input()), sort.keys(), SortExec.NO_FETCH, false);
        }
        if (plan instanceof Limit limit) {
            // A global limit; LimitPushdown turns a sort below into a top-k and puts local limits below exchanges.
            return new LimitExec(plan(limit.input()), limit.offset(), limit.fetch(), true);
        }
        throw new IllegalArgumentException("no physical plan for " + plan.describe());
    }
}
