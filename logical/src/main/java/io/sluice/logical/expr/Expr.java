package io.sluice.logical.expr;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import java.util.List;

/**
 * A scalar expression: immutable, and the same object in logical and physical plans. It describes a
 * value and does not compute it: where a plan runs, its operators bind it to the input schema and
 * evaluate the bound form ({@code io.sluice.operators.expr.ExprBinder}). Columns are referred to by
 * name. {@link #type(Schema)} validates the expression against an input schema and names what is wrong.
 */
public interface Expr {
    DataType type(Schema input);

    List<Expr> children();

    Expr withChildren(List<Expr> children);

    /** The column name this expression gets when it is not aliased: its SQL text. */
    default String name() {
        return toString();
    }
}
