package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import java.util.ArrayList;
import java.util.List;

/**
 * A function, date part or date arithmetic over bound children: every child is evaluated, then
 * {@code function} computes the value from theirs. (CASE is not one: it evaluates a branch only if
 * a row picks it.)
 */
public record ChildValuesExpr(ChildValuesFunction function, List<PhysicalExpr> children, DataType type)
        implements PhysicalExpr {
    public ChildValuesExpr {
        requireNonNull(function, "function is null");
        children = List.copyOf(children);
        requireNonNull(type, "type is null");
    }

    @Override
    public Col evaluate(Batch batch) {
        List<Col> values = new ArrayList<>(children.size());
        for (PhysicalExpr child : children) {
            values.add(child.evaluate(batch));
        }
        return function.apply(values, type);
    }

    @Override
    public String toString() {
        return function.source().getClass().getSimpleName() + children;
    }
}
