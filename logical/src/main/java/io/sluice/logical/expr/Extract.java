package io.sluice.logical.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType.Kind;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Col;
import io.sluice.kernels.Temporal;
import java.util.List;
import java.util.Locale;

/**
 * {@code extract(field FROM d)} and {@code date_part('field', d)} of a DATE or TIMESTAMP, as a BIGINT
 * with DuckDB's meanings: {@code dow} counts from Sunday = 0, {@code isodow} from Monday = 1,
 * {@code week} is the ISO week, {@code second} the whole seconds; a date's time fields are 0. NULL
 * gives NULL.
 */
public record Extract(Field field, Expr input) implements OfChildValues {
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
    public Col apply(List<Col> children, DataType type) {
        Col c = children.get(0);
        if (c.type.kind() == Kind.NULL) {
            return Col.allNull(field == Field.EPOCH ? DataType.FLOAT64 : DataType.INT64, c.length);
        }
        boolean timestamp = c.type.kind() == Kind.TIMESTAMP;
        long[] in = c.longs;
        boolean[] nulls = c.nulls;
        if (field == Field.EPOCH) {
            double[] seconds = new double[c.length];
            for (int i = 0; i < seconds.length; i++) {
                if (nulls == null || !nulls[i]) {
                    // whole seconds and the fraction apart, so the division rounds as DuckDB's does
                    long micros = timestamp ? in[i] : in[i] * Temporal.MICROS_PER_DAY;
                    long whole = Math.floorDiv(micros, Temporal.MICROS_PER_SECOND);
                    seconds[i] = whole + Math.floorMod(micros, Temporal.MICROS_PER_SECOND) / 1e6;
                }
            }
            return Col.ofDoubles(seconds, nulls);
        }
        long[] out = new long[c.length];
        for (int i = 0; i < out.length; i++) {
            if (nulls == null || !nulls[i]) {
                long day = timestamp ? Temporal.microsToDate(in[i]) : in[i];
                long ofDay = timestamp ? in[i] - day * Temporal.MICROS_PER_DAY : 0;
                out[i] = part(day, ofDay);
            }
        }
        return Col.ofLongs(DataType.INT64, out, nulls);
    }

    private long part(long day, long ofDay) {
        return switch (field) {
            case YEAR -> Temporal.yearOf(Temporal.civil(day));
            case QUARTER -> (Temporal.monthOf(Temporal.civil(day)) - 1) / 3 + 1;
            case MONTH -> Temporal.monthOf(Temporal.civil(day));
            case DAY -> Temporal.dayOf(Temporal.civil(day));
            case WEEK -> {
                long thursday = day - Math.floorMod(day + 3, 7) + 3; // the ISO week's Thursday fixes its year
                yield (thursday - Temporal.epochDay(Temporal.yearOf(Temporal.civil(thursday)), 1, 1)) / 7 + 1;
            }
            case DOW -> Math.floorMod(day + 4, 7); // 1970-01-01 was a Thursday (4)
            case ISODOW -> Math.floorMod(day + 3, 7) + 1;
            case DOY -> day - Temporal.epochDay(Temporal.yearOf(Temporal.civil(day)), 1, 1) + 1;
            case HOUR -> ofDay / Temporal.MICROS_PER_HOUR;
            case MINUTE -> ofDay % Temporal.MICROS_PER_HOUR / Temporal.MICROS_PER_MINUTE;
            case SECOND -> ofDay % Temporal.MICROS_PER_MINUTE / Temporal.MICROS_PER_SECOND;
            case MILLISECOND -> ofDay % Temporal.MICROS_PER_MINUTE / 1000;
            case MICROSECOND -> ofDay % Temporal.MICROS_PER_MINUTE;
            case EPOCH -> throw new IllegalStateException("epoch is computed as a double");
        };
    }

    @Override
    public String toString() {
        return "extract(" + field + " FROM " + input + ")";
    }
}
