package io.sluice.logical.expr;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import java.util.List;

/**
 * A scalar expression: immutable, and the same object in logical and physical plans. Columns are
 * referred to by name and looked up in the input batch once per batch. {@link #type(Schema)}
 * validates the expression against an input schema and names what is wrong.
 */
public interface Expr {
    DataType type(Schema input);

    List<Expr> children();

    Expr withChildren(List<Expr> children);

    /** Evaluates over a whole batch; the result has one value per row. */
    Col evaluate(Batch batch);

    /** The column name this expression gets when it is not aliased: its SQL text. */
    default String name() {
        return toString();
    }
}
