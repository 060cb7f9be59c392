package io.sluice.plan.logical;

/**
 * Join semantics. Inner and outer joins output the left columns then the right ones; semi and
 * anti joins output the left columns only. {@code LEFT_ANTI_NULL_AWARE} is {@code NOT IN}: no row
 * survives when the right side has a NULL key, and a NULL left key survives only an empty right.
 */
public enum JoinType {
    INNER, LEFT, RIGHT, FULL, LEFT_SEMI, LEFT_ANTI, LEFT_ANTI_NULL_AWARE;

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
}
