package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;

/**
 * A column as DDL declares it: name and type, whether it was declared {@code NOT NULL} (recorded
 * and shown, not enforced on write) and its comment (null when none).
 */
public record TableColumn(String name, DataType type, boolean notNull, String comment) {
    public TableColumn {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
    }

    public static TableColumn of(Field field) {
        return new TableColumn(field.name(), field.type(), false, null);
    }

    public Field field() {
        return new Field(name, type);
    }

    /** {@code name TYPE [NOT NULL] [COMMENT '…']}, as DDL reads it back. */
    public String sql() {
        return SqlText.name(name) + " " + SqlText.type(type) + (notNull ? " NOT NULL" : "")
                + (comment == null ? "" : " COMMENT " + SqlText.string(comment));
    }

    @Override
    public String toString() {
        return sql();
    }
}
