package io.sluice.common.types;

import io.sluice.common.SluiceException;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * A column type. Integers, dates (days since 1970-01-01), timestamps (microseconds since
 * 1970-01-01 00:00, without time zone, as DuckDB's TIMESTAMP and Spark's TIMESTAMP_NTZ) and decimals
 * compute as {@code long}s (decimals scaled by {@code 10^scale}); floats as {@code double}s. Decimals
 * go up to precision 38 (Arrow's Decimal128): those of precision 19 to 38 hold their values as longs
 * while every value of a column fits one, and as 128-bit high and low words otherwise
 * ({@code Col.highs}/{@code Col.lows}).
 */
public record DataType(Kind kind, int precision, int scale) {
    public enum Kind { NULL, BOOL, INT32, INT64, FLOAT64, DECIMAL, UTF8, DATE32, TIMESTAMP }

    /** The largest decimal precision whose every value fits a scaled {@code long}. */
    public static final int MAX_LONG_DECIMAL_PRECISION = 18;

    /** The largest decimal precision (Arrow's Decimal128, Spark's and DuckDB's maximum). */
    public static final int MAX_DECIMAL_PRECISION = 38;

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
    }

    public static DataType decimal(int precision, int scale) {
        return new DataType(Kind.DECIMAL, precision, scale);
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

    /** The type's name in SQL, for messages a user reads: DATE, TIMESTAMP, BIGINT, DECIMAL(p,s), ... */
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
        };
    }

    public boolean isIntegral() {
        return kind == Kind.INT32 || kind == Kind.INT64;
    }

    public boolean isNumeric() {
        return isIntegral() || kind == Kind.FLOAT64 || kind == Kind.DECIMAL;
    }

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
        };
    }

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
        throw new SluiceException("unsupported Arrow type " + type);
    }

    @Override
    public String toString() {
        return kind == Kind.DECIMAL ? "decimal(" + precision + "," + scale + ")" : kind.name().toLowerCase();
    }
}
