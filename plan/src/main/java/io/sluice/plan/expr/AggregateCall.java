package io.sluice.plan.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.SluiceException;
import io.sluice.plan.exec.Batch;
import io.sluice.plan.exec.Col;
import io.sluice.plan.types.DataType;
import io.sluice.plan.types.Schema;
import java.util.List;

/**
 * An aggregate function call. Only an {@code Aggregate} plan node computes it; evaluating it as a
 * scalar is a planning bug. {@code argument} is null for {@code count(*)}.
 */
public record AggregateCall(AggregateFunction function, Expr argument) implements Expr {
    public AggregateCall {
        requireNonNull(function, "function is null");
        if ((argument == null) != (function == AggregateFunction.COUNT_STAR)) {
            throw new IllegalArgumentException("only count(*) has no argument");
        }
    }

    @Override
    public DataType type(Schema input) {
        if (argument != null && Exprs.containsAggregate(argument)) {
            throw new SluiceException("aggregate calls cannot be nested: " + this);
        }
        return function.resultType(argument == null ? DataType.INT64 : argument.type(input));
    }

    @Override
    public List<Expr> children() {
        return argument == null ? List.of() : List.of(argument);
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return children.isEmpty() ? this : new AggregateCall(function, children.get(0));
    }

    @Override
    public Col evaluate(Batch batch) {
        throw new IllegalStateException("aggregate " + this + " evaluated outside an aggregation");
    }

    @Override
    public String toString() {
        return function.sqlName() + "(" + (argument == null ? "*" : argument.toString()) + ")";
    }
}
