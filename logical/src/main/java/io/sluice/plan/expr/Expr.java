package io.sluice.plan.expr;

import io.sluice.plan.exec.Batch;
import io.sluice.plan.exec.Col;
import io.sluice.plan.types.DataType;
import io.sluice.plan.types.Schema;
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
