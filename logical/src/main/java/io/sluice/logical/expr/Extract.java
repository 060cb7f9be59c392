package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import java.util.List;
import java.util.Locale;

/**
 * {@code extract(field FROM d)} and {@code date_part('field', d)} of a DATE or TIMESTAMP, as a BIGINT
 * with DuckDB's meanings: {@code dow} counts from Sunday = 0, {@code isodow} from Monday = 1,
 * {@code week} is the ISO week, {@code second} the whole seconds; a date's time fields are 0. NULL
 * gives NULL.
 */
public record Extract(Field field, Expr input) implements Expr {
    /** The parts that can be extracted. */
    public enum Field {
        YEAR, QUARTER, MONTH, WEEK, DAY, DOW, ISODOW, DOY, HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND,
        /** Seconds since 1970-01-01 00:00:00, with the fraction: a DOUBLE, as in DuckDB. */
        EPOCH;

        /** The field named {@code name} (case-insensitive, with DuckDB's synonyms), or an error listing them. */
        public static Field named(String name) {
            String n = name.strip().toUpperCase(Locale.ROOT);
            return switch (n) {
                case "YEAR", "YEARS", "YR", "Y" -> YEAR;
                case "QUARTER", "QUARTERS" -> QUARTER;
                case "MONTH", "MONTHS", "MON" -> MONTH;
                case "WEEK", "WEEKS", "W" -> WEEK;
                case "DAY", "DAYS", "D", "DAYOFMONTH" -> DAY;
                case "DOW", "DAYOFWEEK" -> DOW;
                case "ISODOW" -> ISODOW;
                case "DOY", "DAYOFYEAR" -> DOY;
                case "HOUR", "HOURS", "H" -> HOUR;
                case "MINUTE", "MINUTES", "M", "MIN" -> MINUTE;
                case "SECOND", "SECONDS", "S", "SEC" -> SECOND;
                case "MILLISECOND", "MILLISECONDS", "MS" -> MILLISECOND;
                case "MICROSECOND", "MICROSECONDS", "US" -> MICROSECOND;
                case "EPOCH" -> EPOCH;
                default -> throw new SluiceException("unknown date part '" + name + "': expected year, quarter, month,"
                        + " week, day, dow, isodow, doy, hour, minute, second, millisecond, microsecond or epoch");
            };
        }
    }

    public Extract {
        requireNonNull(field, "field is null");
        requireNonNull(input, "input is null");
    }

    @Override
    public DataType type(Schema schema) {
        DataType t = input.type(schema);
        if (!t.isTemporal() && t.kind() != Kind.NULL) {
            throw new SluiceException("extract(" + field + " FROM ...) needs a DATE or TIMESTAMP, not " + t.sqlName()
                    + " (" + input + ")");
        }
        return field == Field.EPOCH ? DataType.FLOAT64 : DataType.INT64;
    }

    @Override
    public List<Expr> children() {
        return List.of(input);
    }

    @Override
    public Expr withChildren(List<Expr> children) {
        return new Extract(field, children.get(0));
    }

    @Override
    public String toString() {
        return "extract(" + field + " FROM " + input + ")";
    }
}
