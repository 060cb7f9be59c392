package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.ArithmeticMode;
import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TypeRules;
import java.util.List;

/**
 * Arithmetic, comparison or logical operator on two operands. {@code mode} says what arithmetic does
 * with overflow and a zero divisor (ignored by comparisons and AND/OR).
 */
public record Binary(BinaryOp op, Expr left, Expr right, ArithmeticMode mode) implements Expr {
    public Binary {
        requireNonNull(op, "op is null");
        requireNonNull(left, "left is null");
        requireNonNull(right, "right is null");
        requireNonNull(mode, "mode is null");
    }

    /** {@code left op right} in {@link ArithmeticMode#STRICT} mode. */
    public Binary(BinaryOp op, Expr left, Expr right) {
        this(op, left, right, ArithmeticMode.STRICT);
    }

    @Override
    public DataType type(Schema input) {
        DataType l = left.type(input);
        DataType r = right.type(input);
        return switch (op.kind()) {
            case ARITHMETIC -> TypeRules.arithmetic(op, l, r);
            case COMPARISON -> {
                TypeRules.checkComparable(op, l, r);
                yield DataType.BOOL;
            }
            case LOGICAL -> {
                TypeRules.checkBoolean("operand of " + op.symbol() + " (" + left + ")", l);
                TypeRules.checkBoolean("operand of " + op.symbol() + " (" + right + ")", r);
                yield DataType.BOOL;
            }
        };
    }

    @Override
    public List<Expr> children() {
        return List.of(left, right);
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new Binary(op, children.get(0), children.get(1), mode);
    }

    @Override
    public String toString() {
        return "(" + left + " " + op.symbol() + " " + right + ")";
    }

    /** Arithmetic may fail (overflow, a zero divisor) unless it is {@code try_}; a comparison or AND/OR never does. */
    @Override
    public boolean mayFailItself() {
        return op.kind() == BinaryOp.Kind.ARITHMETIC && mode != ArithmeticMode.TRY;
    }
}
