package io.sluice.plan.physical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.exec.Batch;
import io.sluice.plan.exec.Col;
import io.sluice.plan.exec.Kernels;
import io.sluice.plan.types.DataType;

/** CAST of a bound input. */
public record CastExpr(PhysicalExpr input, DataType type) implements PhysicalExpr {
    public CastExpr {
        requireNonNull(input, "input is null");
        requireNonNull(type, "type is null");
    }

    @Override
    public Col evaluate(Batch batch) {
        return Kernels.cast(input.evaluate(batch), type);
    }

    @Override
    public String toString() {
        return "CAST(" + input + " AS " + type + ")";
    }
}
