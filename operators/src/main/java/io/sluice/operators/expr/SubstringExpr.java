package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.ArrowKernels;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Substring;
import org.apache.arrow.vector.VarCharVector;

/**
 * {@code substring(input, start[, length])} of a bound input, with constant positions; on the bytes
 * of an Arrow string column when the batch has one ({@link ArrowKernels#substring}).
 */
public record SubstringExpr(PhysicalExpr input, long start, Long length) implements PhysicalExpr {
    public SubstringExpr {
        requireNonNull(input, "input is null");
    }

    @Override
    public DataType type() {
        return DataType.UTF8;
    }

    @Override
    public Col evaluate(Batch batch) {
        if (input instanceof BoundColumn column && batch.arrowVector(column.index()) instanceof VarCharVector strings) {
            return ArrowKernels.substring(strings, start, length);
        }
        return Substring.apply(input.evaluate(batch), start, length);
    }

    @Override
    public String toString() {
        return "substring(" + input + ", " + start + (length == null ? "" : ", " + length) + ")";
    }
}
