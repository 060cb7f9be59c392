package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.Int128;
import io.sluice.kernels.ScalarKernels;
import io.sluice.logical.expr.Literal;
import java.math.BigInteger;

/**
 * A constant as a one-row column. Operators on a column and a constant use it as a scalar
 * ({@link io.sluice.kernels.ScalarKernels}); only a constant evaluated on its own (a projected
 * constant) is expanded to the batch's length.
 */
public record ScalarLiteral(Literal literal, Col scalar) implements PhysicalExpr {
    public ScalarLiteral {
        requireNonNull(literal, "literal is null");
        requireNonNull(scalar, "scalar is null");
    }

    public static ScalarLiteral of(Literal literal) {
        return new ScalarLiteral(literal, scalarOf(literal));
    }

    /** The value at {@code row} of a column, as a literal of the column's type. */
    public static Literal literalAt(Col c, int row) {
        if (c.isNull(row)) {
            return new Literal(null, c.type);
        }
        return switch (c.type.kind()) {
            case NULL -> new Literal(null, c.type);
            case BOOL -> new Literal(c.bools[row], c.type);
            case FLOAT64 -> new Literal(c.doubles[row], c.type);
            case UTF8 -> new Literal(c.strings[row], c.type);
            default -> c.isWide() ? new Literal(Int128.toBigInteger(c.highs[row], c.lows[row]), c.type)
                    : new Literal(c.longs[row], c.type);
        };
    }

    /** {@code literal} as a one-row column: the scalar form kernels take ({@link ScalarKernels}). */
    public static Col scalarOf(Literal literal) {
        Object value = literal.value();
        DataType type = literal.type();
        return value == null ? Col.allNull(type, 1) : switch (type.kind()) {
            case NULL -> Col.allNull(type, 1);
            case BOOL -> Col.ofBools(new boolean[] {(Boolean) value}, null);
            case FLOAT64 -> Col.ofDoubles(new double[] {(Double) value}, null);
            case UTF8 -> Col.ofStrings(new String[] {(String) value}, null);
            default -> value instanceof BigInteger b
                    ? Col.ofInt128(type, new long[] {Int128.high(b)}, new long[] {Int128.low(b)}, null)
                    : Col.ofLongs(type, new long[] {(Long) value}, null);
        };
    }

    @Override
    public DataType type() {
        return literal.type();
    }

    @Override
    public Col evaluate(Batch batch) {
        return ScalarKernels.expand(scalar, batch.rowCount());
    }

    @Override
    public String toString() {
        return literal.toString();
    }
}
