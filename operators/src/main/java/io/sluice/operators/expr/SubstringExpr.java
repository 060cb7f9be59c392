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
        return apply(input.evaluate(batch), start, length);
    }

    /** {@code substring(c, start[, length])} of a string column, as {@link Substring} defines it. */
    static Col apply(Col c, long start, Long length) {
        if (c.type.kind() == DataType.Kind.NULL) {
            return Col.allNull(DataType.UTF8, c.length);
        }
        long end = length == null ? Long.MAX_VALUE : start + length; // exclusive, 1-based
        int from = (int) Math.max(0, Math.min(Integer.MAX_VALUE, start - 1));
        String[] out = new String[c.length];
        for (int i = 0; i < c.length; i++) {
            if (c.isNull(i)) {
                continue;
            }
            String s = c.strings[i];
            int to = (int) Math.max(0, Math.min(s.length(), end - 1));
            out[i] = from >= to ? "" : s.substring(from, to);
        }
        return Col.ofStrings(out, c.nulls);
    }

    @Override
    public String toString() {
        return "substring(" + input + ", " + start + (length == null ? "" : ", " + length) + ")";
    }
}
