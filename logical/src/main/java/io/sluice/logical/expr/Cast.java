package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.ArithmeticMode;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import java.util.List;

/**
 * CAST(input AS type); {@code mode} says whether text that spells no value of {@code type} (or a
 * number out of its range) is an error or NULL.
 */
public record Cast(Expr input, DataType type, ArithmeticMode mode) implements Expr {
    public Cast {
        requireNonNull(input, "input is null");
        requireNonNull(type, "type is null");
        requireNonNull(mode, "mode is null");
    }

    /** CAST in {@link ArithmeticMode#STRICT} mode (a malformed value is an error). */
    public Cast(Expr input, DataType type) {
        this(input, type, ArithmeticMode.STRICT);
    }

    @Override
    public DataType type(Schema schema) {
        input.type(schema);
        return type;
    }

    @Override
    public List<Expr> children() {
        return List.of(input);
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new Cast(children.get(0), type, mode);
    }

    @Override
    public String toString() {
        return (mode == ArithmeticMode.TRY ? "TRY_CAST(" : "CAST(") + input + " AS " + type + ")";
    }

    /** A cast may meet text that spells no value or a value out of range, unless it is {@code try_cast}. */
    @Override
    public boolean mayFailItself() {
        return mode != ArithmeticMode.TRY;
    }
}
