package io.sluice.common.types;

import io.sluice.common.SluiceException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * A column type. Integers, dates (days since 1970-01-01), timestamps (microseconds since
 * 1970-01-01 00:00, without time zone, as DuckDB's TIMESTAMP and Spark's TIMESTAMP_NTZ) and decimals
 * compute as {@code long}s (decimals scaled by {@code 10^scale}); floats as {@code double}s. Decimals
 * go up to precision 38 (Arrow's Decimal128): those of precision 19 to 38 hold their values as longs
 * while every value of a column fits one, and as 128-bit high and low words otherwise
 * ({@code Col.highs}/{@code Col.lows}).
 *
 * <p>Nested types carry their parts as {@code children}: a STRUCT its named fields (in order, unique
 * names), a LIST one field {@value #ELEMENT} (the element type), a MAP two fields {@value #KEY} and
 * {@value #VALUE}. Their values stay in Arrow vectors ({@code StructVector}, {@code ListVector},
 * {@code MapVector}); {@link #toArrowField} gives the Arrow field with its children, which an
 * {@link ArrowType} alone does not carry. Every other kind has no children.
 */
public record DataType(Kind kind, int precision, int scale, List<Field> children) {
    public enum Kind { NULL, BOOL, INT32, INT64, FLOAT64, DECIMAL, UTF8, DATE32, TIMESTAMP, STRUCT, LIST, MAP }

    /** The largest decimal precision whose every value fits a scaled {@code long}. */
    public static final int MAX_LONG_DECIMAL_PRECISION = 18;

    /** The largest decimal precision (Arrow's Decimal128, Spark's and DuckDB's maximum). */
    public static final int MAX_DECIMAL_PRECISION = 38;

    /** The name of a LIST's element field. */
    public static final String ELEMENT = "element";
    /** The name of a MAP's key field. */
    public static final String KEY = "key";
    /** The name of a MAP's value field. */
    public static final String VALUE = "value";
    /** The name of the Arrow struct a map's entries are held in. */
    public static final String ENTRIES = "entries";

    public static final DataType NULL = new DataType(Kind.NULL, 0, 0);
    public static final DataType BOOL = new DataType(Kind.BOOL, 0, 0);
    public static final DataType INT32 = new DataType(Kind.INT32, 0, 0);
    public static final DataType INT64 = new DataType(Kind.INT64, 0, 0);
    public static final DataType FLOAT64 = new DataType(Kind.FLOAT64, 0, 0);
    public static final DataType UTF8 = new DataType(Kind.UTF8, 0, 0);
    public static final DataType DATE32 = new DataType(Kind.DATE32, 0, 0);
    public static final DataType TIMESTAMP = new DataType(Kind.TIMESTAMP, 0, 0);

    public DataType {
        if (kind == null) {
            throw new IllegalArgumentException("kind is null");
        }
        // absent on the wire for a scalar type
        children = children == null ? List.of() : List.copyOf(children);
        if (kind == Kind.DECIMAL) {
            if (precision < 1 || precision > MAX_DECIMAL_PRECISION) {
                throw new SluiceException("decimal precision " + precision + " is not supported (1 to "
                        + MAX_DECIMAL_PRECISION + ")");
            }
            if (scale < 0 || scale > precision) {
                throw new SluiceException("decimal scale " + scale + " must be between 0 and the precision " + precision);
            }
        } else if (precision != 0 || scale != 0) {
            throw new IllegalArgumentException(kind + " takes no precision or scale");
        }
        switch (kind) {
            case STRUCT -> {
                Set<String> names = new HashSet<>();
                for (Field f : children) {
                    if (!names.add(f.name())) {
                        throw new SluiceException("duplicate struct field name '" + f.name() + "'");
                    }
                }
            }
            case LIST -> checkChildren(kind, children, ELEMENT);
            case MAP -> checkChildren(kind, children, KEY, VALUE);
            default -> {
                if (!children.isEmpty()) {
                    throw new IllegalArgumentException(kind + " has no child fields");
                }
            }
        }
    }

    public DataType(Kind kind, int precision, int scale) {
        this(kind, precision, scale, List.of());
    }

    private static void checkChildren(Kind kind, List<Field> children, String... names) {
        if (children.size() != names.length) {
            throw new IllegalArgumentException(kind + " takes " + names.length + " child fields, not " + children.size());
        }
        for (int i = 0; i < names.length; i++) {
            if (!children.get(i).name().equals(names[i])) {
                throw new IllegalArgumentException(kind + " child " + i + " must be named '" + names[i] + "', not '"
                        + children.get(i).name() + "'");
            }
        }
    }

    public static DataType decimal(int precision, int scale) {
        return new DataType(Kind.DECIMAL, precision, scale);
    }

    /** A struct of the given fields, in order; names must be unique. */
    public static DataType struct(List<Field> fields) {
        return new DataType(Kind.STRUCT, 0, 0, fields);
    }

    /** A list (Spark's ARRAY) of the given element type. */
    public static DataType list(DataType element) {
        return new DataType(Kind.LIST, 0, 0, List.of(new Field(ELEMENT, element)));
    }

    /** A map of the given key and value types; keys are never null. */
    public static DataType map(DataType key, DataType value) {
        return new DataType(Kind.MAP, 0, 0, List.of(new Field(KEY, key), new Field(VALUE, value)));
    }

    /** STRUCT, LIST or MAP: values held only in Arrow vectors. */
    public boolean isNested() {
        return kind == Kind.STRUCT || kind == Kind.LIST || kind == Kind.MAP;
    }

    /** A struct's fields. */
    public List<Field> fields() {
        require(Kind.STRUCT);
        return children;
    }

    /** A list's element type. */
    public DataType elementType() {
        require(Kind.LIST);
        return children.get(0).type();
    }

    /** A map's key type. */
    public DataType keyType() {
        require(Kind.MAP);
        return children.get(0).type();
    }

    /** A map's value type. */
    public DataType valueType() {
        require(Kind.MAP);
        return children.get(1).type();
    }

    /** The index of a struct's field by name (exact, then case-insensitive when unambiguous), or -1. */
    public int fieldIndex(String name) {
        require(Kind.STRUCT);
        int found = -1;
        for (int i = 0; i < children.size(); i++) {
            if (children.get(i).name().equals(name)) {
                return i;
            }
            if (children.get(i).name().equalsIgnoreCase(name)) {
                found = found == -1 ? i : -2;
            }
        }
        return Math.max(found, -1);
    }

    private void require(Kind expected) {
        if (kind != expected) {
            throw new IllegalStateException("a " + this + " is not a " + expected);
        }
    }

    /** True for types whose values are held as {@code long}s: integers, dates, timestamps and decimals. */
    public boolean isLongBacked() {
        return kind == Kind.INT32 || kind == Kind.INT64 || kind == Kind.DATE32 || kind == Kind.DECIMAL
                || kind == Kind.TIMESTAMP;
    }

    /** A decimal of precision 19 to 38, whose values may pass a long. */
    public boolean isWideDecimal() {
        return kind == Kind.DECIMAL && precision > MAX_LONG_DECIMAL_PRECISION;
    }

    /** Dates and timestamps. */
    public boolean isTemporal() {
        return kind == Kind.DATE32 || kind == Kind.TIMESTAMP;
    }

    /**
     * The type's name in SQL, for messages a user reads: DATE, TIMESTAMP, BIGINT, DECIMAL(p,s), ...;
     * nested types as Spark writes them: {@code STRUCT<a: INTEGER, b: VARCHAR>}, {@code ARRAY<INTEGER>},
     * {@code MAP<VARCHAR, INTEGER>}.
     */
    public String sqlName() {
        return switch (kind) {
            case NULL -> "NULL";
            case BOOL -> "BOOLEAN";
            case INT32 -> "INTEGER";
            case INT64 -> "BIGINT";
            case FLOAT64 -> "DOUBLE";
            case DECIMAL -> "DECIMAL(" + precision + "," + scale + ")";
            case UTF8 -> "VARCHAR";
            case DATE32 -> "DATE";
            case TIMESTAMP -> "TIMESTAMP";
            case STRUCT -> children.stream().map(f -> f.name() + ": " + f.type().sqlName())
                    .collect(Collectors.joining(", ", "STRUCT<", ">"));
            case LIST -> "ARRAY<" + elementType().sqlName() + ">";
            case MAP -> "MAP<" + keyType().sqlName() + ", " + valueType().sqlName() + ">";
        };
    }

    public boolean isIntegral() {
        return kind == Kind.INT32 || kind == Kind.INT64;
    }

    public boolean isNumeric() {
        return isIntegral() || kind == Kind.FLOAT64 || kind == Kind.DECIMAL;
    }

    /** The Arrow type; for a nested type without its children (see {@link #toArrowField}). */
    public ArrowType toArrow() {
        return switch (kind) {
            case NULL -> ArrowType.Null.INSTANCE;
            case BOOL -> ArrowType.Bool.INSTANCE;
            case INT32 -> new ArrowType.Int(32, true);
            case INT64 -> new ArrowType.Int(64, true);
            case FLOAT64 -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case DECIMAL -> new ArrowType.Decimal(precision, scale, 128);
            case UTF8 -> ArrowType.Utf8.INSTANCE;
            case DATE32 -> new ArrowType.Date(DateUnit.DAY);
            case TIMESTAMP -> new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
            case STRUCT -> ArrowType.Struct.INSTANCE;
            case LIST -> ArrowType.List.INSTANCE;
            case MAP -> new ArrowType.Map(false);
        };
    }

    /** A nullable Arrow field of this type named {@code name}, with its child fields. */
    public org.apache.arrow.vector.types.pojo.Field toArrowField(String name) {
        return toArrowField(name, true);
    }

    private org.apache.arrow.vector.types.pojo.Field toArrowField(String name, boolean nullable) {
        List<org.apache.arrow.vector.types.pojo.Field> arrowChildren = new ArrayList<>(children.size());
        if (kind == Kind.MAP) {
            // Arrow's map: a list of non-null "entries" structs of a non-null key and a value
            arrowChildren.add(new org.apache.arrow.vector.types.pojo.Field(ENTRIES,
                    FieldType.notNullable(ArrowType.Struct.INSTANCE),
                    List.of(keyType().toArrowField(KEY, false), valueType().toArrowField(VALUE, true))));
        } else {
            for (Field child : children) {
                arrowChildren.add(child.type().toArrowField(child.name(), true));
            }
        }
        return new org.apache.arrow.vector.types.pojo.Field(name, new FieldType(nullable, toArrow(), null), arrowChildren);
    }

    /** The type of an Arrow field, nested ones from its children. */
    public static DataType fromArrowField(org.apache.arrow.vector.types.pojo.Field field) {
        ArrowType type = field.getType();
        List<org.apache.arrow.vector.types.pojo.Field> arrowChildren = field.getChildren();
        if (type instanceof ArrowType.Struct) {
            List<Field> fields = new ArrayList<>(arrowChildren.size());
            for (org.apache.arrow.vector.types.pojo.Field child : arrowChildren) {
                fields.add(new Field(child.getName(), fromArrowField(child)));
            }
            return struct(fields);
        }
        if (type instanceof ArrowType.List || type instanceof ArrowType.LargeList
                || type instanceof ArrowType.FixedSizeList) {
            if (arrowChildren.size() != 1) {
                throw new SluiceException("Arrow list field '" + field.getName() + "' has " + arrowChildren.size()
                        + " child fields, not 1");
            }
            return list(fromArrowField(arrowChildren.get(0)));
        }
        if (type instanceof ArrowType.Map) {
            if (arrowChildren.size() != 1 || arrowChildren.get(0).getChildren().size() != 2) {
                throw new SluiceException("Arrow map field '" + field.getName()
                        + "' does not hold one entries struct of a key and a value");
            }
            List<org.apache.arrow.vector.types.pojo.Field> entry = arrowChildren.get(0).getChildren();
            return map(fromArrowField(entry.get(0)), fromArrowField(entry.get(1)));
        }
        return fromArrow(type);
    }

    /** The type of a scalar Arrow type; a nested one needs its field ({@link #fromArrowField}). */
    public static DataType fromArrow(ArrowType type) {
        if (type instanceof ArrowType.Bool) {
            return BOOL;
        }
        if (type instanceof ArrowType.Int i && i.getIsSigned()) {
            if (i.getBitWidth() == 64) {
                return INT64;
            }
            return INT32;
        }
        if (type instanceof ArrowType.FloatingPoint) {
            return FLOAT64;
        }
        if (type instanceof ArrowType.Decimal d) {
            return decimal(d.getPrecision(), d.getScale());
        }
        if (type instanceof ArrowType.Utf8) {
            return UTF8;
        }
        if (type instanceof ArrowType.Date d && d.getUnit() == DateUnit.DAY) {
            return DATE32;
        }
        if (type instanceof ArrowType.Timestamp t && t.getUnit() == TimeUnit.MICROSECOND && t.getTimezone() == null) {
            return TIMESTAMP;
        }
        if (type instanceof ArrowType.Null) {
            return NULL;
        }
        if (type instanceof ArrowType.Struct || type instanceof ArrowType.List || type instanceof ArrowType.Map) {
            throw new IllegalArgumentException("the nested Arrow type " + type + " needs its field: use fromArrowField");
        }
        throw new SluiceException("unsupported Arrow type " + type);
    }

    @Override
    public String toString() {
        return switch (kind) {
            case DECIMAL -> "decimal(" + precision + "," + scale + ")";
            case STRUCT -> children.stream().map(Field::toString).collect(Collectors.joining(", ", "struct<", ">"));
            case LIST -> "list<" + elementType() + ">";
            case MAP -> "map<" + keyType() + ", " + valueType() + ">";
            default -> kind.name().toLowerCase();
        };
    }
}
