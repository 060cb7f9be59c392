package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.OfChildValues;
import java.util.ArrayList;
import java.util.List;

/**
 * A function, date part or date arithmetic ({@link OfChildValues}) over bound children: the
 * children are evaluated in their bound form and the logical node's {@link OfChildValues#apply}
 * computes the value, so both evaluations share one implementation.
 */
public record ChildValuesExpr(OfChildValues source, List<PhysicalExpr> children, DataType type)
        implements PhysicalExpr {
    public ChildValuesExpr {
        requireNonNull(source, "source is null");
        children = List.copyOf(children);
        requireNonNull(type, "type is null");
    }

    @Override
    public Col evaluate(Batch batch) {
        List<Col> values = new ArrayList<>(children.size());
        for (PhysicalExpr child : children) {
            values.add(child.evaluate(batch));
        }
        return source.apply(values, type);
    }

    @Override
    public String toString() {
        return source.getClass().getSimpleName() + children;
    }
}
