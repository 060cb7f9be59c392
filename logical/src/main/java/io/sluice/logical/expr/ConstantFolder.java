package io.sluice.logical.expr;

import io.sluice.common.types.Schema;
import java.util.Optional;

/**
 * Computes a column-free expression now, for an optimizer that replaces it by its value. Declared
 * here, implemented where expressions are evaluated (the operators), so that a folded constant is
 * exactly what execution would have computed, by the same code.
 */
public interface ConstantFolder {
    /**
     * The value of {@code expr}, which reads no column of {@code input}, as a literal of the
     * expression's type; empty when it cannot be computed here (typing or evaluation fails, or
     * yields another type), so that any error happens at run time, if ever rows reach it.
     */
    Optional<Literal> fold(Expr expr, Schema input);
}
