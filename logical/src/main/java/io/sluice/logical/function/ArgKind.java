package io.sluice.logical.function;

import io.sluice.common.types.DataType;
import io.sluice.common.types.DataType.Kind;

/**
 * The types one argument of a built-in function takes. A NULL literal fits every kind. The kinds
 * accept what Spark converts implicitly for that argument: a string argument takes numbers, dates,
 * timestamps and booleans too (read as their text), a date argument takes a timestamp (its day)
 * or a string (parsed), a number argument any numeric type.
 */
public enum ArgKind {
    STRING("STRING (or a number, date, timestamp or boolean, read as text)"),
    INTEGER("INT or BIGINT"),
    NUMBER("a number (INT, BIGINT, DECIMAL or DOUBLE)"),
    BOOLEAN("BOOLEAN"),
    DATE("DATE (or a TIMESTAMP, or a STRING yyyy-MM-dd)"),
    TIMESTAMP("TIMESTAMP (or a DATE, or a STRING)"),
    /** Any value: the function's own rule decides (greatest, coalesce, collect_list). */
    ANY("any type");

    private final String description;

    ArgKind(String description) {
        this.description = description;
    }

    /** The types taken, as an error message says them. */
    public String description() {
        return description;
    }

    public boolean accepts(DataType type) {
        Kind k = type.kind();
        if (k == Kind.NULL || this == ANY) {
            return true;
        }
        return switch (this) {
            case STRING -> k == Kind.UTF8 || type.isNumeric() || type.isTemporal() || k == Kind.BOOL;
            case INTEGER -> k == Kind.INT32 || k == Kind.INT64;
            case NUMBER -> type.isNumeric();
            case BOOLEAN -> k == Kind.BOOL;
            case DATE, TIMESTAMP -> type.isTemporal() || k == Kind.UTF8;
            case ANY -> true;
        };
    }
}
