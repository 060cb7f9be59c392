package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Unevaluable;
import java.util.List;

/**
 * {@code expr("a + 1")}: SQL expression text, parsed by the SQL front end when a DataFrame uses it,
 * since only then are the columns it names known.
 */
record ExprText(String text) implements Unevaluable {
    ExprText {
        requireNonNull(text, "text is null");
    }

    @Override
    public DataType type(Schema schema) {
        throw notEvaluable();
    }

    @Override
    public List<Expr> children() {
        return List.of();
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return this;
    }

    @Override
    public RuntimeException notEvaluable() {
        return new SluiceException("expression '" + text + "' used outside a DataFrame");
    }

    @Override
    public String toString() {
        return text;
    }
}
