package io.sluice.operators.expr;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Expr;
import java.util.List;

/**
 * The value of an expression that is a function of all its children's values (functions, date
 * parts, date arithmetic), computed once per batch by {@link ChildValuesExpr}.
 */
interface ChildValuesFunction {
    /** The logical expression whose value this computes. */
    Expr source();

    /** The value, given each child's value in order (all of one length) and the result {@code type}. */
    Col apply(List<Col> children, DataType type);
}
