package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import java.util.List;

/** CAST(input AS type). */
public record Cast(Expr input, DataType type) implements Expr {
    public Cast {
        requireNonNull(input, "input is null");
        requireNonNull(type, "type is null");
    }

    @Override
    public DataType type(Schema schema) {
        input.type(schema);
        return type;
    }

    @Override
    public List<Expr> children() {
        return List.of(input);
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new Cast(children.get(0), type);
    }

    @Override
    public String toString() {
        return "CAST(" + input + " AS " + type + ")";
    }
}
