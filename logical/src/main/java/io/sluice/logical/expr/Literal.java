package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TemporalValues;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.List;

/**
 * A constant. {@code value} is held as the engine computes it: a {@code Long} for integers, dates
 * (epoch days) and decimals (unscaled), a {@code Double}, {@code Boolean} or {@code String}; null
 * for NULL. A decimal of precision 19 to 38 whose unscaled value passes a long holds a
 * {@code BigInteger} (one that fits a long is always held as a {@code Long}).
 */
public record Literal(Object value, DataType type) implements Expr {
    public Literal {
        requireNonNull(type, "type is null");
        if (value instanceof BigInteger b && b.bitLength() < 64) {
            value = b.longValue();
        }
        if (value != null) {
            boolean ok = switch (type.kind()) {
                case NULL -> false;
                case BOOL -> value instanceof Boolean;
                case FLOAT64 -> value instanceof Double;
                case UTF8 -> value instanceof String;
                case DECIMAL -> value instanceof Long || (value instanceof BigInteger b && type.isWideDecimal()
                        && b.abs().compareTo(BigInteger.TEN.pow(type.precision())) < 0);
                default -> value instanceof Long;
            };
            if (!ok) {
                throw new IllegalArgumentException("literal " + value + " is not held as " + type);
            }
        }
    }

    public static Literal of(long value) {
        return new Literal(value, DataType.INT64);
    }

    public static Literal of(double value) {
        return new Literal(value, DataType.FLOAT64);
    }

    public static Literal of(String value) {
        return new Literal(value, DataType.UTF8);
    }

    public static Literal of(boolean value) {
        return new Literal(value, DataType.BOOL);
    }

    public static Literal ofDecimal(BigDecimal value) {
        int scale = Math.max(0, value.scale());
        BigDecimal scaled = value.setScale(scale);
        int precision = Math.max(scale, scaled.precision());
        if (precision > DataType.MAX_DECIMAL_PRECISION) {
            throw new io.sluice.common.SluiceException("decimal constant " + value.toPlainString() + " has more than "
                    + DataType.MAX_DECIMAL_PRECISION + " digits");
        }
        return new Literal(scaled.unscaledValue(), DataType.decimal(Math.max(1, precision), scale));
    }

    public static Literal ofDate(LocalDate date) {
        return new Literal(date.toEpochDay(), DataType.DATE32);
    }

    public static Literal ofTimestamp(long micros) {
        return new Literal(micros, DataType.TIMESTAMP);
    }

    public static Literal nullValue() {
        return new Literal(null, DataType.NULL);
    }

    @Override
    public DataType type(Schema input) {
        return type;
    }

    @Override
    public List<Expr> children() {
        return List.of();
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return this;
    }

    @Override
    public String toString() {
        if (value == null) {
            return "NULL";
        }
        return switch (type.kind()) {
            case UTF8 -> "'" + ((String) value).replace("'", "''") + "'";
            case DATE32 -> "DATE '" + LocalDate.ofEpochDay((Long) value) + "'";
            case TIMESTAMP -> "TIMESTAMP '" + TemporalValues.formatTimestamp((Long) value) + "'";
            case DECIMAL -> (value instanceof BigInteger b ? new BigDecimal(b, type.scale())
                    : BigDecimal.valueOf((Long) value, type.scale())).toPlainString();
            default -> value.toString();
        };
    }

    @Override
    public boolean mayFailItself() {
        return false;
    }
}
