package io.sluice.common.types;

import io.sluice.common.SluiceException;

/**
 * Text that spells no value of a cast's target type. A distinct class, carrying the text and the
 * type, so that a cast in Spark's modes can answer with Spark's error or with NULL for that row.
 */
public final class MalformedValueException extends SluiceException {
    private final String value;
    private final DataType target;

    public MalformedValueException(String value, DataType target) {
        super("cannot cast '" + value + "' to " + target.sqlName());
        this.value = value;
        this.target = target;
    }

    public String value() {
        return value;
    }

    public DataType target() {
        return target;
    }
}
