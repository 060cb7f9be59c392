package io.sluice.datasource.json;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A type seen in JSON values while inferring a schema, with Spark's rules for two types met in one
 * field: NULL gives way to anything; BIGINT and DOUBLE make DOUBLE; BIGINT and DECIMAL a DECIMAL
 * that holds both (DOUBLE past 38 digits); DOUBLE and DECIMAL make DOUBLE; objects merge field by
 * field, arrays element by element; any other pair makes STRING (the values' JSON text).
 */
sealed interface JsonType {
    JsonType NULL = new Scalar(DataType.NULL);
    JsonType BOOL = new Scalar(DataType.BOOL);
    JsonType BIGINT = new Scalar(DataType.INT64);
    JsonType DOUBLE = new Scalar(DataType.FLOAT64);
    JsonType STRING = new Scalar(DataType.UTF8);

    /** A scalar of a flat type. */
    record Scalar(DataType type) implements JsonType {
        public Scalar {
            requireNonNull(type, "type is null");
        }
    }

    /** An object: its fields sorted by name, as Spark sorts the fields it infers. */
    record Struct(Map<String, JsonType> fields) implements JsonType {
        public Struct {
            fields = java.util.Collections.unmodifiableMap(new TreeMap<>(fields));
        }
    }

    /** An array of elements of one type. */
    record Array(JsonType element) implements JsonType {
        public Array {
            requireNonNull(element, "element is null");
        }
    }

    /** The type holding values of both. */
    static JsonType merge(JsonType a, JsonType b) {
        if (a.equals(b) || b.equals(NULL)) {
            return a;
        }
        if (a.equals(NULL)) {
            return b;
        }
        if (a instanceof Scalar x && b instanceof Scalar y) {
            return mergeScalars(x.type(), y.type());
        }
        if (a instanceof Struct x && b instanceof Struct y) {
            TreeMap<String, JsonType> fields = new TreeMap<>(x.fields());
            y.fields().forEach((name, type) -> fields.merge(name, type, JsonType::merge));
            return new Struct(fields);
        }
        if (a instanceof Array x && b instanceof Array y) {
            return new Array(merge(x.element(), y.element()));
        }
        return STRING;
    }

    private static JsonType mergeScalars(DataType x, DataType y) {
        if (x.isNumeric() && y.isNumeric()) {
            if (x.kind() == DataType.Kind.FLOAT64 || y.kind() == DataType.Kind.FLOAT64) {
                return DOUBLE;
            }
            // integers and decimals: enough integer and fraction digits for both (a BIGINT has 19 digits)
            int scale = Math.max(x.scale(), y.scale());
            int integerDigits = Math.max(integerDigits(x), integerDigits(y));
            return integerDigits + scale > DataType.MAX_DECIMAL_PRECISION ? DOUBLE
                    : new Scalar(DataType.decimal(integerDigits + scale, scale));
        }
        return STRING;
    }

    private static int integerDigits(DataType type) {
        return type.kind() == DataType.Kind.DECIMAL ? type.precision() - type.scale() : 19;
    }

    /**
     * The column type: NULL (no value but nulls seen) becomes STRING, as in Spark, also as an array's
     * element; an object becomes a STRUCT of its fields by name, an array a LIST. An object without
     * fields in the whole sample holds no column to read: it stays its JSON text (STRING).
     */
    default DataType toDataType() {
        if (this instanceof Scalar s) {
            return s.type().kind() == DataType.Kind.NULL ? DataType.UTF8 : s.type();
        }
        if (this instanceof Array a) {
            return DataType.list(a.element().toDataType());
        }
        Struct struct = (Struct) this;
        if (struct.fields().isEmpty()) {
            return DataType.UTF8;
        }
        List<Field> fields = new ArrayList<>(struct.fields().size());
        struct.fields().forEach((name, type) -> fields.add(new Field(name, type.toDataType())));
        return DataType.struct(fields);
    }
}
