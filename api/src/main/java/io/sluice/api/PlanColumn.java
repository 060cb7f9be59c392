package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;

/**
 * {@code df.col("a")}: column {@code a} of one particular DataFrame (Spark's {@code df("a")}, an
 * attribute with a plan id). A DataFrame built on {@code df} resolves it through its
 * {@link ColumnLineage} to the column that carries it there, whatever it is named after a join.
 */
record PlanColumn(long dataFrame, String column) implements DeferredLeaf {
    PlanColumn {
        requireNonNull(column, "column is null");
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
