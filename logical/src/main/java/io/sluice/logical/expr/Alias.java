package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import java.util.List;

/** Gives an expression an output column name. */
public record Alias(Expr input, String alias) implements Expr {
    public Alias {
        requireNonNull(input, "input is null");
        requireNonNull(alias, "alias is null");
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
        return new Alias(children.get(0), alias);
    }

    @Override
    public String name() {
        return alias;
    }

    @Override
    public String toString() {
        return input + " AS " + alias;
    }
}
