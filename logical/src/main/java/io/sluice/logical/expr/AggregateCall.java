package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TypeRules;
import java.util.List;

/**
 * An aggregate function call. Only an {@code Aggregate} plan node computes it; evaluating it as a
 * scalar is a planning bug. {@code argument} is null for {@code count(*)}; {@code second} is the
 * second argument of a two-argument function ({@code corr(y, x)}: y is {@code argument}), else null.
 * {@code options} are the constants that configure a function ({@code approx_count_distinct}'s
 * relative error, {@code percentile_approx}'s percentage and accuracy, {@code first}'s ignoreNulls),
 * empty for the others.
 */
public record AggregateCall(AggregateFunction function, Expr argument, Expr second, List<Literal> options)
        implements Unevaluable {
    public AggregateCall {
        requireNonNull(function, "function is null");
        options = List.copyOf(options);
        if ((argument == null) != (function == AggregateFunction.COUNT_STAR)) {
            throw new IllegalArgumentException("only count(*) has no argument");
        }
        if ((second != null) != (function.arity() == 2)) {
            throw new SluiceException(function.sqlName() + "() takes " + function.arity() + " argument"
                    + (function.arity() == 1 ? "" : "s"));
        }
    }

    public AggregateCall(AggregateFunction function, Expr argument, Expr second) {
        this(function, argument, second, List.of());
    }

    public AggregateCall(AggregateFunction function, Expr argument) {
        this(function, argument, null);
    }

    /** Option {@code i}'s value, or {@code otherwise} when there is no such option. */
    public Object option(int i, Object otherwise) {
        return i < options.size() && options.get(i).value() != null ? options.get(i).value() : otherwise;
    }

    @Override
    public DataType type(Schema input) {
        if (argument != null && Exprs.containsAggregate(argument) || second != null && Exprs.containsAggregate(second)) {
            throw new SluiceException("aggregate calls cannot be nested: " + this);
        }
        if (second != null) {
            DataType t = second.type(input);
            if (function == AggregateFunction.MAX_BY || function == AggregateFunction.MIN_BY) {
                TypeRules.requireKeyable("the second argument of " + function.sqlName() + "()", second, t);
            } else {
                function.resultType(t);
            }
        }
        return function.resultType(argument == null ? DataType.INT64 : argument.type(input));
    }

    @Override
    public List<Expr> children() {
        if (argument == null) {
            return List.of();
        }
        return second == null ? List.of(argument) : List.of(argument, second);
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        if (children.isEmpty()) {
            return this;
        }
        return new AggregateCall(function, children.get(0), children.size() > 1 ? children.get(1) : null, options);
    }

    @Override
    public RuntimeException notEvaluable() {
        return new IllegalStateException("aggregate " + this + " evaluated outside an aggregation");
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(function.sqlName()).append('(').append(argument == null ? "*" : argument.toString());
        if (second != null) {
            s.append(", ").append(second);
        }
        options.forEach(o -> s.append(", ").append(o));
        return s.append(')').toString();
    }
}
