package io.sluice.logical.plan;

import static java.util.Objects.requireNonNull;

import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;

/**
 * The column a {@link JoinType#LEFT_MARK} join appends, and how it is computed. Of the right rows
 * matching a left row (equal keys, residual filter TRUE: two-valued, like any join condition), the
 * {@code condition} is evaluated in three-valued logic over the pair: the mark is TRUE when it is
 * TRUE for some pair, else NULL when it is NULL for some pair, else FALSE. The condition is what
 * makes {@code x IN (subquery)} NULL rather than FALSE when {@code x} or a subquery value is NULL
 * ({@code x = y}); for {@code EXISTS} it is the literal TRUE.
 */
public record JoinMark(String column, Expr condition) {
    public JoinMark {
        requireNonNull(column, "column is null");
        requireNonNull(condition, "condition is null");
    }

    /** The mark of {@code EXISTS}: whether some right row matches. */
    public static JoinMark exists(String column) {
        return new JoinMark(column, Literal.of(true));
    }

    @Override
    public String toString() {
        return column + (condition.equals(Literal.of(true)) ? "" : " := " + condition);
    }
}
