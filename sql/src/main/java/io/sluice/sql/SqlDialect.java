package io.sluice.sql;

/**
 * Whose semantics SQL text has where SQL dialects disagree ({@code sluice.sql.dialect}). The Spark
 * Connect endpoint and the DataFrame API always use {@link #SPARK}'s.
 */
public enum SqlDialect {
    /**
     * Spark SQL's: NULLs first in an ascending sort (last in a descending one), a cast of a fraction
     * to an integer truncates toward zero, double-quoted text is a string literal, backticks quote names.
     */
    SPARK,
    /**
     * DuckDB's (as Sluice had before): NULLs last in both directions, a cast of a fraction to an
     * integer rounds, double quotes and backticks quote names.
     */
    ANSI;

    /** Where NULLs go in a sort key that does not say. */
    public boolean nullsFirstByDefault(boolean ascending) {
        return this == SPARK && ascending;
    }
}
