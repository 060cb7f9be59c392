package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.function.FunctionCall;
import io.sluice.operators.function.FunctionKernel;
import java.util.ArrayList;
import java.util.List;

/**
 * A built-in {@link FunctionCall} over bound arguments: each argument is evaluated, then the
 * function's kernel computes the batch's values (the batch's row count given, for {@code rand()},
 * which has no argument to take it from).
 */
public record FunctionCallExpr(FunctionCall source, FunctionKernel kernel, List<PhysicalExpr> args, DataType type)
        implements PhysicalExpr {
    public FunctionCallExpr {
        requireNonNull(source, "source is null");
        requireNonNull(kernel, "kernel is null");
        args = List.copyOf(args);
        requireNonNull(type, "type is null");
    }

    @Override
    public Col evaluate(Batch batch) {
        List<Col> values = new ArrayList<>(args.size());
        for (PhysicalExpr arg : args) {
            values.add(arg.evaluate(batch));
        }
        return kernel.apply(values, batch.rowCount(), type);
    }

    @Override
    public String toString() {
        return source.function() + args;
    }
}
