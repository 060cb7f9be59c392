package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import java.util.List;

/**
 * A correlated reference, inside a subquery, to column {@code name} of an enclosing query: of the
 * input of the node holding the {@code SubqueryExpr} whose {@code SubqueryExpr.outerScope()} is
 * {@code scope}. The scope tells the levels apart: a name alone may mean a column at two levels
 * (single-table queries' columns are unqualified). Its type is fixed when the SQL is translated,
 * since the subquery's own input does not have the column. Not evaluable: decorrelation replaces it
 * by a {@link Column} of a join's left side.
 */
public record OuterColumn(String name, DataType type, long scope) implements Unevaluable {
    public OuterColumn {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
    }

    @Override
    public DataType type(Schema input) {
        return type;
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
    public RuntimeException notEvaluable() {
        return new SluiceException("unsupported correlated subquery: the outer reference " + this
                + " could not be decorrelated");
    }

    @Override
    public String toString() {
        return "outer(" + name + ")";
    }
}
