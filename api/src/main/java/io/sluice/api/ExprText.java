package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.logical.function.CallContext;

/**
 * {@code expr("a + 1")}: SQL expression text, parsed by the SQL front end when a DataFrame uses it,
 * since only then are the columns it names known. {@code context} is the session's time zone and
 * arithmetic mode the text is planned with (Spark Connect's session); null: UTC and strict arithmetic,
 * as the Java API plans.
 */
record ExprText(String text, CallContext context) implements DeferredLeaf {
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
