package io.sluice.optimizer.physical;

import io.sluice.plan.expr.Alias;
import io.sluice.plan.expr.Column;
import io.sluice.plan.expr.Expr;
import io.sluice.plan.logical.Aggregate;
import io.sluice.plan.logical.EmptyRelation;
import io.sluice.plan.logical.SubqueryAlias;
import io.sluice.plan.logical.Union;
import io.sluice.plan.operators.EmptyExec;
import io.sluice.plan.operators.UnionExec;
import io.sluice.plan.types.Schema;
import java.util.ArrayList;
import java.util.List;
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
    /** The input with its columns renamed, by position, to {@code target}'s names (no-op when equal). */
    static ExecutionPlan rename(ExecutionPlan input, Schema target) {
        Schema schema = input.schema();
        if (schema.names().equals(target.names())) {
            return input;
        }
        List<Expr> exprs = new ArrayList<>(schema.size());
        for (int i = 0; i < schema.size(); i++) {
            String from = schema.field(i).name();
            String to = target.field(i).name();
            exprs.add(from.equals(to) ? new Column(from) : new Alias(new Column(from), to));
        }
        return new ProjectionExec(input, exprs);
    }

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
        if (plan instanceof SubqueryAlias alias) {
            return rename(plan(alias.input()), alias.schema());
        }
        if (plan instanceof EmptyRelation empty) {
            return new EmptyExec(empty.schema());
        }
        if (plan instanceof Union union) {
            List<ExecutionPlan> inputs = new ArrayList<>();
            for (LogicalPlan input : union.inputs()) {
                inputs.add(rename(plan(input), union.schema()));
            }
            return new UnionExec(inputs);
        }
        throw new IllegalArgumentException("no physical plan for " + plan.describe());
    }
}
