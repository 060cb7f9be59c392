package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import java.util.List;

/**
 * {@code substring(input, start[, length])} with constant positions, 1-based as in SQL: the
 * characters at positions {@code start .. start + length - 1} that exist (a start before 1 still
 * counts positions from it, as DuckDB and PostgreSQL do); no length means to the end. NULL input
 * gives NULL. Positions count UTF-16 chars, which equal characters for text without surrogate pairs.
 */
public record Substring(Expr input, long start, Long length) implements Expr {
    public Substring {
        requireNonNull(input, "input is null");
        if (length != null && length < 0) {
            throw new SluiceException("substring length must not be negative: " + length);
        }
    }

    @Override
    public DataType type(Schema schema) {
        DataType t = input.type(schema);
        if (t.kind() != DataType.Kind.UTF8 && t.kind() != DataType.Kind.NULL) {
            throw new SluiceException("substring needs a string, not " + t + " (" + input + ")");
        }
        return DataType.UTF8;
    }

    @Override
    public List<Expr> children() {
        return List.of(input);
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new Substring(children.get(0), start, length);
    }

    @Override
    public String toString() {
        return "substring(" + input + ", " + start + (length == null ? "" : ", " + length) + ")";
    }

    @Override
    public boolean mayFailItself() {
        return false;
    }
}
