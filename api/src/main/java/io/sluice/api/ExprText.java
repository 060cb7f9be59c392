package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;

/**
 * {@code expr("a + 1")}: SQL expression text, parsed by the SQL front end when a DataFrame uses it,
 * since only then are the columns it names known.
 */
record ExprText(String text) implements DeferredLeaf {
    ExprText {
        requireNonNull(text, "text is null");
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
