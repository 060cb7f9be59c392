package io.sluice.connect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.sql.TableDdl;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Sluice's types as Spark names and proto messages them, and back: the schema a client is told, the
 * types of casts and of {@code createDataFrame} and {@code read.schema(...)}. A Sluice TIMESTAMP has
 * no zone, so Spark sees it as {@code timestamp_ntz}; every column is nullable.
 */
final class SparkTypes {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SparkTypes() {
    }

    static io.sluice.connect.proto.DataType toProto(Schema schema) {
        io.sluice.connect.proto.DataType.Struct.Builder struct = io.sluice.connect.proto.DataType.Struct.newBuilder();
        for (Field f : schema.fields()) {
            struct.addFields(field(f));
        }
        return io.sluice.connect.proto.DataType.newBuilder().setStruct(struct).build();
    }

    private static io.sluice.connect.proto.DataType.StructField field(Field f) {
        return io.sluice.connect.proto.DataType.StructField.newBuilder()
                .setName(f.name()).setDataType(toProto(f.type())).setNullable(true).build();
    }

    static io.sluice.connect.proto.DataType toProto(DataType type) {
        io.sluice.connect.proto.DataType.Builder b = io.sluice.connect.proto.DataType.newBuilder();
        return switch (type.kind()) {
            case NULL -> b.setNull(io.sluice.connect.proto.DataType.NULL.getDefaultInstance()).build();
            case BOOL -> b.setBoolean(io.sluice.connect.proto.DataType.Boolean.getDefaultInstance()).build();
            case INT32 -> b.setInteger(io.sluice.connect.proto.DataType.Integer.getDefaultInstance()).build();
            case INT64 -> b.setLong(io.sluice.connect.proto.DataType.Long.getDefaultInstance()).build();
            case FLOAT64 -> b.setDouble(io.sluice.connect.proto.DataType.Double.getDefaultInstance()).build();
            case DECIMAL -> b.setDecimal(io.sluice.connect.proto.DataType.Decimal.newBuilder()
                    .setPrecision(type.precision()).setScale(type.scale())).build();
            case UTF8 -> b.setString(io.sluice.connect.proto.DataType.String.getDefaultInstance()).build();
            case DATE32 -> b.setDate(io.sluice.connect.proto.DataType.Date.getDefaultInstance()).build();
            case TIMESTAMP -> b.setTimestampNtz(io.sluice.connect.proto.DataType.TimestampNTZ.getDefaultInstance()).build();
            case STRUCT -> {
                io.sluice.connect.proto.DataType.Struct.Builder struct = io.sluice.connect.proto.DataType.Struct.newBuilder();
                type.fields().forEach(f -> struct.addFields(field(f)));
                yield b.setStruct(struct).build();
            }
            case LIST -> b.setArray(io.sluice.connect.proto.DataType.Array.newBuilder()
                    .setElementType(toProto(type.elementType())).setContainsNull(true)).build();
            case MAP -> b.setMap(io.sluice.connect.proto.DataType.Map.newBuilder().setKeyType(toProto(type.keyType()))
                    .setValueType(toProto(type.valueType())).setValueContainsNull(true)).build();
        };
    }

    /** A Spark type as Sluice's; the types Sluice has no counterpart for are refused by name. */
    static DataType fromProto(io.sluice.connect.proto.DataType type) {
        return switch (type.getKindCase()) {
            case NULL -> DataType.NULL;
            case BOOLEAN -> DataType.BOOL;
            case BYTE, SHORT, INTEGER -> DataType.INT32;
            case LONG -> DataType.INT64;
            case FLOAT, DOUBLE -> DataType.FLOAT64;
            case DECIMAL -> DataType.decimal(type.getDecimal().hasPrecision() ? type.getDecimal().getPrecision() : 10,
                    type.getDecimal().hasScale() ? type.getDecimal().getScale() : 0);
            case STRING, CHAR, VAR_CHAR -> DataType.UTF8;
            case DATE -> DataType.DATE32;
            case TIMESTAMP, TIMESTAMP_NTZ -> DataType.TIMESTAMP;
            case ARRAY -> DataType.list(fromProto(type.getArray().getElementType()));
            case MAP -> DataType.map(fromProto(type.getMap().getKeyType()), fromProto(type.getMap().getValueType()));
            case STRUCT -> DataType.struct(type.getStruct().getFieldsList().stream()
                    .map(f -> new Field(f.getName(), fromProto(f.getDataType()))).toList());
            case UNPARSED -> parseType(type.getUnparsed().getDataTypeString());
            default -> throw new SluiceException("Spark type " + type.getKindCase().name().toLowerCase(Locale.ROOT)
                    + " is not supported by Sluice");
        };
    }

    /** A type in Spark's SQL spelling ({@code int}, {@code decimal(10,2)}, {@code array<string>}). */
    static DataType parseType(String text) {
        return TableDdl.columns("c " + text).field(0).type();
    }

    /**
     * A schema as Spark's clients send it: its JSON form ({@code StructType.json}) or DDL
     * ({@code "a INT, b STRING"}).
     */
    static Schema parseSchema(String text) {
        String trimmed = text.trim();
        if (!trimmed.startsWith("{")) {
            return TableDdl.columns(trimmed);
        }
        try {
            DataType struct = fromJson(JSON.readTree(trimmed));
            if (struct.kind() != DataType.Kind.STRUCT) {
                throw new SluiceException("a schema must be a struct, not " + trimmed);
            }
            return new Schema(struct.fields());
        } catch (IOException e) {
            throw new SluiceException("bad schema JSON: " + e.getMessage(), e);
        }
    }

    private static DataType fromJson(JsonNode node) {
        if (node.isTextual()) {
            String name = node.asText();
            return switch (name) {
                case "timestamp", "timestamp_ntz" -> DataType.TIMESTAMP;
                case "byte", "short", "integer" -> DataType.INT32;
                case "float" -> DataType.FLOAT64;
                case "void" -> DataType.NULL;
                default -> parseType(name);
            };
        }
        String type = node.path("type").asText();
        return switch (type) {
            case "struct" -> {
                List<Field> fields = new ArrayList<>();
                for (JsonNode f : node.path("fields")) {
                    fields.add(new Field(f.path("name").asText(), fromJson(f.path("type"))));
                }
                yield DataType.struct(fields);
            }
            case "array" -> DataType.list(fromJson(node.path("elementType")));
            case "map" -> DataType.map(fromJson(node.path("keyType")), fromJson(node.path("valueType")));
            default -> throw new SluiceException("unknown type in schema JSON: " + node);
        };
    }

    /** Spark's name of a type ({@code bigint}, {@code decimal(10,2)}, {@code array<int>}), as in DDL and show(). */
    static String simpleString(DataType type) {
        return switch (type.kind()) {
            case NULL -> "void";
            case BOOL -> "boolean";
            case INT32 -> "int";
            case INT64 -> "bigint";
            case FLOAT64 -> "double";
            case DECIMAL -> "decimal(" + type.precision() + "," + type.scale() + ")";
            case UTF8 -> "string";
            case DATE32 -> "date";
            case TIMESTAMP -> "timestamp_ntz";
            case STRUCT -> "struct<" + String.join(",", type.fields().stream()
                    .map(f -> f.name() + ":" + simpleString(f.type())).toList()) + ">";
            case LIST -> "array<" + simpleString(type.elementType()) + ">";
            case MAP -> "map<" + simpleString(type.keyType()) + "," + simpleString(type.valueType()) + ">";
        };
    }

    /**
     * {@code printSchema()}'s text as Spark prints it: {@code root}, then {@code  |-- name: type (nullable = true)}
     * per column, an array's {@code element} and a map's {@code key}/{@code value} below theirs;
     * {@code maxLevel} (0: all) counts struct nesting only, as Spark's does.
     */
    static String treeString(Schema schema, int maxLevel) {
        int depth = maxLevel > 0 ? maxLevel : Integer.MAX_VALUE;
        StringBuilder out = new StringBuilder("root\n");
        schema.fields().forEach(f -> appendField(out, " |", f.name(), f.type(), depth));
        return out.toString();
    }

    private static void appendField(StringBuilder out, String prefix, String name, DataType type, int depth) {
        if (depth > 0) {
            out.append(prefix).append("-- ").append(name).append(": ").append(typeName(type)).append(" (nullable = true)\n");
            appendNested(out, prefix + "    |", type, depth);
        }
    }

    private static void appendNested(StringBuilder out, String prefix, DataType type, int depth) {
        switch (type.kind()) {
            case STRUCT -> type.fields().forEach(f -> appendField(out, prefix, f.name(), f.type(), depth - 1));
            case LIST -> {
                out.append(prefix).append("-- element: ").append(typeName(type.elementType())).append(" (containsNull = true)\n");
                appendNested(out, prefix + "    |", type.elementType(), depth);
            }
            case MAP -> {
                out.append(prefix).append("-- key: ").append(typeName(type.keyType())).append('\n');
                appendNested(out, prefix + "    |", type.keyType(), depth);
                out.append(prefix).append("-- value: ").append(typeName(type.valueType())).append(" (valueContainsNull = true)\n");
                appendNested(out, prefix + "    |", type.valueType(), depth);
            }
            default -> {
            }
        }
    }

    private static String typeName(DataType type) {
        return switch (type.kind()) {
            case BOOL -> "boolean";
            case INT32 -> "integer";
            case INT64 -> "long";
            case STRUCT -> "struct";
            case LIST -> "array";
            case MAP -> "map";
            default -> simpleString(type);
        };
    }

    /** A schema as DDL ({@code a INT, b STRING}). */
    static String ddl(Schema schema) {
        return String.join(",", schema.fields().stream().map(f -> f.name() + " " + simpleString(f.type()).toUpperCase(Locale.ROOT)).toList());
    }
}
