package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Unevaluable;
import io.sluice.logical.plan.Generate;
import java.util.List;

/**
 * {@code Functions.explode(c)} (and {@code posexplode}, {@code inline}) in a DataFrame's select list:
 * {@link DataFrame#select} plans it as a {@link Generate} below the projection and reads the
 * generated columns in its place.
 */
record ExplodeCall(Generate.Function function, Expr input, boolean outer) implements Unevaluable {
    ExplodeCall {
        requireNonNull(function, "function is null");
        requireNonNull(input, "input is null");
    }

    @Override
    public DataType type(Schema schema) {
        return Generate.generatedFields(function, input, schema).get(0).type();
    }

    @Override
    public List<Expr> children() {
        return List.of(input);
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new ExplodeCall(function, children.get(0), outer);
    }

    @Override
    public RuntimeException notEvaluable() {
        return new SluiceException(this + " is only allowed as an item of select()");
    }

    @Override
    public String toString() {
        return function.sqlName(outer) + "(" + input + ")";
    }
}
