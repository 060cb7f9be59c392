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

    /**
     * Whether computing this node from its children's values may fail on some row (an overflow, a
     * zero divisor under ANSI arithmetic, a cast of text that spells no value, a malformed function
     * argument), not counting its children. Conservative: true unless the node says otherwise. A
     * filter runs conjuncts that may fail after the others, over only the rows they keep, as Spark
     * and DuckDB do ({@link #mayFail}).
     */
    default boolean mayFailItself() {
        return true;
    }

    /** Whether evaluating this expression may fail on some row: it or any expression under it {@link #mayFailItself may}. */
    default boolean mayFail() {
        return mayFailItself() || children().stream().anyMatch(Expr::mayFail);
    }

    /** The column name this expression gets when it is not aliased: its SQL text. */
    default String name() {
        return toString();
    }
}
