package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import java.util.List;

/**
 * {@code input [NOT] LIKE 'pattern'} ({@code ILIKE} when {@code caseInsensitive}): {@code %} matches
 * any run of characters, {@code _} one character; everything else is literal. The pattern is a
 * constant, so the bound expression compiles it once. NULL input gives NULL.
 */
public record Like(Expr input, String pattern, boolean negated, boolean caseInsensitive) implements Expr {
    public Like {
        requireNonNull(input, "input is null");
        requireNonNull(pattern, "pattern is null");
    }

    @Override
    public DataType type(Schema schema) {
        DataType t = input.type(schema);
        if (t.kind() != DataType.Kind.UTF8 && t.kind() != DataType.Kind.NULL) {
            throw new SluiceException("LIKE needs a string operand, not " + t + " (" + input + ")");
        }
        return DataType.BOOL;
    }

    @Override
    public List<Expr> children() {
        return List.of(input);
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new Like(children.get(0), pattern, negated, caseInsensitive);
    }

    @Override
    public String toString() {
        return input + (negated ? " NOT" : "") + (caseInsensitive ? " ILIKE " : " LIKE ")
                + "'" + pattern.replace("'", "''") + "'";
    }

    @Override
    public boolean mayFailItself() {
        return false;
    }
}
