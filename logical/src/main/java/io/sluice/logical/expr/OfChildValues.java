package io.sluice.logical.expr;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import java.util.ArrayList;
import java.util.List;

/**
 * An expression whose value over a batch is a function of its children's values over that batch,
 * every child evaluated (functions, date parts, date arithmetic). The function is {@link #apply},
 * so a physical expression can evaluate bound children and call it: logical and physical
 * evaluation share one implementation. (CASE is not one: it evaluates a branch only if a row
 * picks it.)
 */
public interface OfChildValues extends Expr {
    /**
     * The value, given each child's value in {@link #children()} order (all of one length) and
     * the result {@code type} ({@link #type} of the input schema).
     */
    Col apply(List<Col> children, DataType type);

    @Override
    default Col evaluate(Batch batch) {
        List<Expr> children = children();
        List<Col> values = new ArrayList<>(children.size());
        for (Expr child : children) {
            values.add(child.evaluate(batch));
        }
        return apply(values, type(batch.schema()));
    }
}
