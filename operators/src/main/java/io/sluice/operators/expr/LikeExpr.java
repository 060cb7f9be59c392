package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.ArrowKernels;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.Like;
import java.util.regex.Pattern;
import org.apache.arrow.vector.VarCharVector;

/**
 * {@code input [NOT] [I]LIKE 'pattern'} with the pattern compiled once, at binding: to UTF-8 byte
 * segments ({@link ArrowKernels.BytePattern}, when it has no {@code _} and no case folding) for an
 * Arrow string column, and to a regular expression for every other input.
 */
public record LikeExpr(PhysicalExpr input, boolean negated, ArrowKernels.BytePattern bytes, Pattern regex)
        implements PhysicalExpr {
    public LikeExpr {
        requireNonNull(input, "input is null");
        requireNonNull(regex, "regex is null");
    }

    static LikeExpr of(Like like, PhysicalExpr input) {
        ArrowKernels.BytePattern bytes = like.caseInsensitive() ? null : ArrowKernels.BytePattern.compile(like.pattern());
        return new LikeExpr(input, like.negated(), bytes, Like.toRegex(like.pattern(), like.caseInsensitive()));
    }

    @Override
    public DataType type() {
        return DataType.BOOL;
    }

    @Override
    public Col evaluate(Batch batch) {
        if (bytes != null && input instanceof BoundColumn column
                && batch.arrowVector(column.index()) instanceof VarCharVector strings) {
            return ArrowKernels.like(strings, bytes, negated);
        }
        return Like.matches(input.evaluate(batch), regex, negated);
    }

    @Override
    public String toString() {
        return input + (negated ? " NOT LIKE " : " LIKE ") + regex;
    }
}
