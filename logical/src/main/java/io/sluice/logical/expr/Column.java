package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import java.util.List;

/** A reference to an input column by name. */
public record Column(String column) implements Expr {
    public Column {
        requireNonNull(column, "column is null");
    }

    @Override
    public DataType type(Schema input) {
        return input.field(column).type();
    }

    @Override
    public List<Expr> children() {
        return List.of();
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return this;
    }

    @Override
    public String name() {
        return column;
    }

    @Override
    public String toString() {
        return column;
    }

    @Override
    public boolean mayFailItself() {
        return false;
    }
}
