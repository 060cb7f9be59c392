package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Unevaluable;
import java.util.List;

/**
 * {@code df.col("a")}: column {@code a} of one particular DataFrame (Spark's {@code df("a")}, an
 * attribute with a plan id). A DataFrame built on {@code df} resolves it through its
 * {@link ColumnLineage} to the column that carries it there, whatever it is named after a join.
 */
record PlanColumn(long dataFrame, String column) implements Unevaluable {
    PlanColumn {
        requireNonNull(column, "column is null");
    }

    @Override
    public DataType type(Schema schema) {
        throw notEvaluable();
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
    public RuntimeException notEvaluable() {
        return new SluiceException("column '" + column + "' of DataFrame " + dataFrame + " used outside a DataFrame");
    }

    @Override
    public String toString() {
        return column;
    }
}
