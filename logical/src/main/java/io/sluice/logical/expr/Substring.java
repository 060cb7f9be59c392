package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
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
    public Col evaluate(Batch batch) {
        return apply(input.evaluate(batch), start, length);
    }

    /** {@code substring(c, start[, length])} of a string column. */
    public static Col apply(Col c, long start, Long length) {
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
