package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Unevaluable;
import java.util.List;

/**
 * Marks the argument of an aggregate written with DISTINCT ({@code count(DISTINCT x)}) while the
 * front end builds a query; {@link DistinctAggregates} plans such calls away, so no plan it returns
 * contains one. It types as its input and is never evaluated.
 */
record DistinctArgument(Expr input) implements Unevaluable {
    DistinctArgument {
        requireNonNull(input, "input is null");
    }

    @Override
    public DataType type(Schema schema) {
        return input.type(schema);
    }

    @Override
    public List<Expr> children() {
        return List.of(input);
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new DistinctArgument(children.get(0));
    }

    @Override
    public RuntimeException notEvaluable() {
        return new IllegalStateException("DISTINCT " + input + " was not planned away");
    }

    @Override
    public String toString() {
        return "DISTINCT " + input;
    }
}
