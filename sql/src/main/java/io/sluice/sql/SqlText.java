package io.sluice.sql;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Writes names, strings, types and option lists as DDL text that {@link DdlParser} reads back to
 * the same values: what {@code SHOW CREATE TABLE} prints and the catalog files store.
 */
public final class SqlText {
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private SqlText() {
    }

    /** A name, in backticks when it is not a plain word. */
    public static String name(String name) {
        return PLAIN.matcher(name).matches() ? name : "`" + name.replace("`", "``") + "`";
    }

    /** A single-quoted string; quotes and backslashes escaped as Spark reads them. */
    public static String string(String value) {
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n").replace("\r", "\\r")
                .replace("\t", "\\t") + "'";
    }

    /** The type by its Spark name (INT, BIGINT, STRING, DECIMAL(p,s), ARRAY<…>, MAP<…>, STRUCT<…>). */
    public static String type(DataType type) {
        return switch (type.kind()) {
            case NULL -> "VOID";
            case BOOL -> "BOOLEAN";
            case INT32 -> "INT";
            case INT64 -> "BIGINT";
            case FLOAT64 -> "DOUBLE";
            case DECIMAL -> "DECIMAL(" + type.precision() + "," + type.scale() + ")";
            case UTF8 -> "STRING";
            case DATE32 -> "DATE";
            case TIMESTAMP -> "TIMESTAMP";
            case LIST -> "ARRAY<" + type(type.elementType()) + ">";
            case MAP -> "MAP<" + type(type.keyType()) + ", " + type(type.valueType()) + ">";
            case STRUCT -> type.children().stream().map(SqlText::structField).collect(Collectors.joining(", ", "STRUCT<", ">"));
        };
    }

    private static String structField(Field f) {
        return name(f.name()) + ": " + type(f.type());
    }

    /** {@code (key 'value', …)} in the map's order. */
    public static String properties(Map<String, String> values) {
        return values.entrySet().stream().map(e -> string(e.getKey()) + " " + string(e.getValue()))
                .collect(Collectors.joining(", ", "(", ")"));
    }
}
