package io.sluice.common.types;

/**
 * What arithmetic and casts do with a value that does not fit (integer overflow, a zero divisor, text
 * that spells no value of the target type). Fixed per expression when the query is planned, as
 * Spark fixes its {@code EvalMode} from {@code spark.sql.ansi.enabled} at analysis, so a plan means
 * the same on every worker whatever the settings there.
 */
public enum ArithmeticMode {
    /** Overflow and malformed casts are errors; division by zero is NULL (DuckDB's rules; the ansi dialect and the DataFrame API). */
    STRICT,
    /** Spark with {@code spark.sql.ansi.enabled=true}: overflow, division by zero and malformed casts are errors with Spark's error classes. */
    ANSI,
    /** Spark with {@code spark.sql.ansi.enabled=false}: integer overflow wraps around; division by zero and malformed casts are NULL. */
    LEGACY,
    /** {@code try_add}, {@code try_divide}, {@code try_cast} and kin: whatever does not fit is NULL. */
    TRY;

    /** Whether a zero divisor is an error rather than NULL. */
    public boolean failsOnZeroDivisor() {
        return this == ANSI;
    }

    /** Whether text that spells no value of a cast's target type is NULL rather than an error. */
    public boolean nullOnMalformedCast() {
        return this == LEGACY || this == TRY;
    }
}
