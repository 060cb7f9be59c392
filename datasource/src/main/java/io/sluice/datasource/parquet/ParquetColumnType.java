package io.sluice.datasource.parquet;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * How one flat Parquet column maps to a Sluice type and how its values are decoded. The mapping:
 * INT32 (and signed or 8/16-bit unsigned INT annotations) → INT32, unsigned 32-bit → INT64,
 * INT32 with DATE → DATE32, INT64 → INT64, INT64 with TIMESTAMP (millis, micros or nanos; UTC-adjusted
 * or not, read as the UTC wall clock) and INT96 → TIMESTAMP, DOUBLE and FLOAT → FLOAT64, BOOLEAN → BOOL, BINARY with
 * STRING → UTF8, DECIMAL of precision up to 18 backed by INT32, INT64, BINARY or
 * FIXED_LEN_BYTE_ARRAY → an unscaled-long decimal. Anything else is refused, naming the column and
 * its Parquet type. Groups and repeated fields are nested columns ({@link ParquetNestedType}), whose
 * leaves map as here.
 */
record ParquetColumnType(DataType type, Decoding decoding) {
    /** The physical reading a column needs. */
    enum Decoding { INT32, UINT32, INT64, FLOAT, DOUBLE, BOOLEAN, STRING, DECIMAL_BYTES, INT64_MILLIS, INT64_NANOS, INT96 }

    ParquetColumnType {
        requireNonNull(type, "type is null");
        requireNonNull(decoding, "decoding is null");
    }

    /** The mapping of a field of a file's schema; {@code file} is named in the error for an unsupported type. */
    static ParquetColumnType of(Type field, String file) {
        if (!field.isPrimitive() || field.isRepetition(Type.Repetition.REPEATED)) {
            throw unsupported(field, file, "nested columns are not read by the flat decoders");
        }
        return leaf(field.asPrimitiveType(), file);
    }

    /** Whether a top-level field is a flat column (else a nested one: a group or a repeated value). */
    static boolean isFlat(Type field) {
        return field.isPrimitive() && !field.isRepetition(Type.Repetition.REPEATED);
    }

    /** The mapping of a primitive field at any depth, repeated or not. */
    static ParquetColumnType leaf(PrimitiveType primitive, String file) {
        Type field = primitive;
        LogicalTypeAnnotation logical = primitive.getLogicalTypeAnnotation();
        if (logical instanceof DecimalLogicalTypeAnnotation decimal) {
            return decimal(field, file, primitive, decimal);
        }
        switch (primitive.getPrimitiveTypeName()) {
            case INT32:
                if (logical == null) {
                    return new ParquetColumnType(DataType.INT32, Decoding.INT32);
                }
                if (logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
                    return new ParquetColumnType(DataType.DATE32, Decoding.INT32);
                }
                if (logical instanceof IntLogicalTypeAnnotation integer) {
                    if (integer.isSigned() || integer.getBitWidth() < 32) {
                        return new ParquetColumnType(DataType.INT32, Decoding.INT32);
                    }
                    return new ParquetColumnType(DataType.INT64, Decoding.UINT32);
                }
                break;
            case INT64:
                if (logical == null || (logical instanceof IntLogicalTypeAnnotation integer && integer.isSigned())) {
                    return new ParquetColumnType(DataType.INT64, Decoding.INT64);
                }
                if (logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation ts) {
                    return new ParquetColumnType(DataType.TIMESTAMP, switch (ts.getUnit()) {
                        case MILLIS -> Decoding.INT64_MILLIS;
                        case MICROS -> Decoding.INT64;
                        case NANOS -> Decoding.INT64_NANOS;
                    });
                }
                break;
            case INT96:
                return new ParquetColumnType(DataType.TIMESTAMP, Decoding.INT96); // Spark's and Impala's legacy timestamps
            case DOUBLE:
                if (logical == null) {
                    return new ParquetColumnType(DataType.FLOAT64, Decoding.DOUBLE);
                }
                break;
            case FLOAT:
                if (logical == null) {
                    return new ParquetColumnType(DataType.FLOAT64, Decoding.FLOAT);
                }
                break;
            case BOOLEAN:
                if (logical == null) {
                    return new ParquetColumnType(DataType.BOOL, Decoding.BOOLEAN);
                }
                break;
            case BINARY:
                if (logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation) {
                    return new ParquetColumnType(DataType.UTF8, Decoding.STRING);
                }
                break;
            default:
                break;
        }
        throw unsupported(field, file, "this type is not supported");
    }

    private static ParquetColumnType decimal(Type field, String file, PrimitiveType primitive,
            DecimalLogicalTypeAnnotation decimal) {
        if (decimal.getPrecision() > DataType.MAX_DECIMAL_PRECISION) {
            throw unsupported(field, file, "decimals of precision above " + DataType.MAX_DECIMAL_PRECISION
                    + " are not supported");
        }
        DataType type = DataType.decimal(decimal.getPrecision(), decimal.getScale());
        return switch (primitive.getPrimitiveTypeName()) {
            case INT32 -> new ParquetColumnType(type, Decoding.INT32);
            case INT64 -> new ParquetColumnType(type, Decoding.INT64);
            case BINARY, FIXED_LEN_BYTE_ARRAY -> new ParquetColumnType(type, Decoding.DECIMAL_BYTES);
            default -> throw unsupported(field, file, "this decimal encoding is not supported");
        };
    }

    static SluiceException unsupported(Type field, String file, String why) {
        return new SluiceException(file + ": column '" + field.getName() + "' has Parquet type '" + describe(field)
                + "': " + why);
    }

    /** One line: a primitive type prints whole, a group only by its head (its children span lines). */
    private static String describe(Type field) {
        if (field.isPrimitive()) {
            return field.toString();
        }
        LogicalTypeAnnotation logical = field.getLogicalTypeAnnotation();
        return field.getRepetition().name().toLowerCase() + " group " + field.getName()
                + (logical == null ? "" : " (" + logical + ")");
    }
}
