package io.sluice.plan.logical;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.SluiceException;
import io.sluice.plan.expr.Expr;
import io.sluice.plan.expr.Exprs;
import io.sluice.plan.expr.TypeRules;
import io.sluice.plan.types.Schema;
import java.util.List;

/** Keeps the rows for which {@code predicate} is true (not false, not NULL). */
public record Filter(LogicalPlan input, Expr predicate) implements LogicalPlan {
    public Filter {
        requireNonNull(input, "input is null");
        requireNonNull(predicate, "predicate is null");
        if (Exprs.containsAggregate(predicate)) {
            throw new SluiceException("aggregate functions are not allowed in WHERE: " + predicate);
        }
        TypeRules.checkBoolean("filter predicate " + predicate, predicate.type(input.schema()));
    }

    @Override
    public Schema schema() {
        return input.schema();
    }

    @Override
    public List<LogicalPlan> children() {
        return List.of(input);
    }

    @Override
    public LogicalPlan withNewChildren(List<LogicalPlan> children) {
        return new Filter(children.get(0), predicate);
    }

    @Override
    public List<Expr> expressions() {
        return List.of(predicate);
    }

    @Override
    public String describe() {
        return "Filter: " + predicate;
    }
}
