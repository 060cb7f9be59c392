package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.ArithmeticMode;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TypeRules;
import java.util.List;

/** NOT, unary minus, IS NULL and IS NOT NULL; {@code mode} says what minus does on overflow. */
public record Unary(Op op, Expr input, ArithmeticMode mode) implements Expr {
    public enum Op { NOT, NEGATE, IS_NULL, IS_NOT_NULL }

    public Unary {
        requireNonNull(op, "op is null");
        requireNonNull(input, "input is null");
        requireNonNull(mode, "mode is null");
    }

    /** {@code op input} in {@link ArithmeticMode#STRICT} mode. */
    public Unary(Op op, Expr input) {
        this(op, input, ArithmeticMode.STRICT);
    }

    @Override
    public DataType type(Schema schema) {
        DataType t = input.type(schema);
        return switch (op) {
            case NOT -> {
                TypeRules.checkBoolean("operand of NOT (" + input + ")", t);
                yield DataType.BOOL;
            }
            case NEGATE -> {
                if (!t.isNumeric() && t.kind() != DataType.Kind.NULL) {
                    throw new SluiceException("cannot negate " + t + " (" + input + ")");
                }
                yield t;
            }
            case IS_NULL, IS_NOT_NULL -> DataType.BOOL;
        };
    }

    @Override
    public List<Expr> children() {
        return List.of(input);
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new Unary(op, children.get(0), mode);
    }

    @Override
    public String toString() {
        return switch (op) {
            case NOT -> "NOT " + input;
            case NEGATE -> "-" + input;
            case IS_NULL -> input + " IS NULL";
            case IS_NOT_NULL -> input + " IS NOT NULL";
        };
    }

    /** Negation may overflow unless it is {@code try_}; NOT and IS [NOT] NULL never fail. */
    @Override
    public boolean mayFailItself() {
        return op == Op.NEGATE && mode != ArithmeticMode.TRY;
    }
}
