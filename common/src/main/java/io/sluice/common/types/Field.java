package io.sluice.common.types;

import static java.util.Objects.requireNonNull;

/** A named, typed column. Every column may hold NULL. */
public record Field(String name, DataType type) {
    public Field {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("field name is empty");
        }
    }

    public org.apache.arrow.vector.types.pojo.Field toArrow() {
        return type.toArrowField(name);
    }

    @Override
    public String toString() {
        return name + ": " + type;
    }
}
