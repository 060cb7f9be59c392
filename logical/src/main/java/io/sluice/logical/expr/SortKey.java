package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

/** One ORDER BY key. Without an explicit choice NULLs sort last in both directions, as in DuckDB. */
public record SortKey(Expr expr, boolean ascending, boolean nullsFirst) {
    public SortKey {
        requireNonNull(expr, "expr is null");
    }

    public static SortKey asc(Expr expr) {
        return new SortKey(expr, true, false);
    }

    public static SortKey desc(Expr expr) {
        return new SortKey(expr, false, false);
    }

    @Override
    public String toString() {
        return expr + (ascending ? " ASC" : " DESC") + (nullsFirst ? " NULLS FIRST" : " NULLS LAST");
    }
}
