package io.sluice.logical.plan;

/**
 * Join semantics. Inner and outer joins output the left columns then the right ones; semi and
 * anti joins output the left columns only. {@code LEFT_ANTI_NULL_AWARE} is {@code NOT IN}: no row
 * survives when the right side has a NULL key, and a NULL left key survives only an empty right.
 * {@code LEFT_MARK} outputs every left row once with one more boolean column, its mark (see
 * {@link JoinMark}): TRUE when some matching right row makes the mark condition TRUE, else NULL when
 * some makes it NULL, else FALSE (so FALSE when nothing matches). It is how a subquery used as a
 * value ({@code EXISTS} under {@code OR}, {@code IN} in a select list) becomes a join.
 */
public enum JoinType {
    INNER, LEFT, RIGHT, FULL, LEFT_SEMI, LEFT_ANTI, LEFT_ANTI_NULL_AWARE, LEFT_MARK;

    /** Whether the output has the right side's columns. */
    public boolean outputsRight() {
        return this == INNER || this == LEFT || this == RIGHT || this == FULL;
    }

    /** Whether unmatched left rows are kept (with NULLs for the right). */
    public boolean preservesLeft() {
        return this == LEFT || this == FULL;
    }

    /** Whether unmatched right rows are kept (with NULLs for the left). */
    public boolean preservesRight() {
        return this == RIGHT || this == FULL;
    }

    /**
     * Whether a left row that matches no right row never affects the output (inner, right and semi
     * joins drop it): such rows may be filtered out early, e.g. by a runtime filter on the keys.
     */
    public boolean ignoresUnmatchedLeft() {
        return this == INNER || this == RIGHT || this == LEFT_SEMI;
    }

    /**
     * Whether a right row that matches no left row never affects the output (inner, left, semi and
     * anti joins; not NOT IN or a mark join, whose answer depends on the right side's NULL keys).
     */
    public boolean ignoresUnmatchedRight() {
        return this == INNER || this == LEFT || this == LEFT_SEMI || this == LEFT_ANTI;
    }

    /** Whether every output row comes from rows that matched on the keys (inner and semi joins). */
    public boolean outputsOnlyMatchedRows() {
        return this == INNER || this == LEFT_SEMI;
    }
}
