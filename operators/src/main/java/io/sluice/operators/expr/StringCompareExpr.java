package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.kernels.ArrowKernels;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.SelectionKernels;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.vector.VarCharVector;

/**
 * {@code column cmp 'constant'} on a string column: on the UTF-8 bytes of the Arrow vector when the
 * batch has one (no string decoded), with the constant encoded once; otherwise, and for an ordering
 * comparison whose constant orders differently as bytes ({@link ArrowKernels#bytesOrderLikeStrings}),
 * the general comparison {@code onStrings}.
 */
public record StringCompareExpr(BinaryOp cmp, BoundColumn column, byte[] constant, boolean onBytes,
        PhysicalExpr onStrings) implements PhysicalExpr {
    public StringCompareExpr {
        requireNonNull(cmp, "cmp is null");
        requireNonNull(column, "column is null");
        requireNonNull(constant, "constant is null");
        requireNonNull(onStrings, "onStrings is null");
    }

    /** {@code column cmp constant}, {@code general} being the same comparison as the column kernels compute it. */
    static StringCompareExpr of(BinaryOp cmp, BoundColumn column, String constant, PhysicalExpr general) {
        boolean onBytes = cmp == BinaryOp.EQ || cmp == BinaryOp.NOT_EQ || ArrowKernels.bytesOrderLikeStrings(constant);
        return new StringCompareExpr(cmp, column, constant.getBytes(StandardCharsets.UTF_8), onBytes, general);
    }

    @Override
    public DataType type() {
        return DataType.BOOL;
    }

    @Override
    public Col evaluate(Batch batch) {
        if (onBytes && batch.arrowVector(column.index()) instanceof VarCharVector strings) {
            return ArrowKernels.compareConstant(strings, constant, cmp);
        }
        return onStrings.evaluate(batch);
    }

    /** On the bytes of the Arrow vector, when the batch holds one and the comparison is taken on bytes. */
    @Override
    public int narrowSelection(Batch batch, int[] selection, int count) {
        if (onBytes && batch.arrowVector(column.index()) instanceof VarCharVector strings) {
            return SelectionKernels.compare(cmp, strings, constant, selection, count);
        }
        return -1;
    }

    @Override
    public String toString() {
        return onStrings.toString();
    }
}
