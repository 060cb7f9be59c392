package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.Kernels;

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
