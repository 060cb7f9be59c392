package io.sluice.logical.function;

import static io.sluice.logical.function.ArgKind.BOOLEAN;
import static io.sluice.logical.function.ArgKind.DATE;
import static io.sluice.logical.function.ArgKind.INTEGER;
import static io.sluice.logical.function.ArgKind.NUMBER;
import static io.sluice.logical.function.ArgKind.STRING;
import static io.sluice.logical.function.ArgKind.TIMESTAMP;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.TemporalValues;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.function.FunctionDefinition.ResultType;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Spark's date and time functions. Sluice's TIMESTAMP has no zone (a wall-clock time); the functions
 * that relate one to an instant ({@code unix_timestamp}, {@code from_unixtime},
 * {@code current_timestamp}) read it in the session time zone, as Spark reads its timestamps.
 * Formats are Spark's datetime patterns ({@code yyyy-MM-dd HH:mm:ss}); a constant pattern is checked
 * when the query is planned. Text that does not parse gives NULL, as in Spark with ANSI mode off.
 */
final class DateTimeFunctions {
    private static final ResultType DATE_TYPE = (types, args) -> DataType.DATE32;

    private DateTimeFunctions() {
    }

    static void register(Registrar r) {
        r.evaluated("to_date", Signature.of(1, "date_str", DATE, "fmt", STRING),
                "The date date_str spells in format fmt (without fmt, yyyy-MM-dd or a timestamp's day).",
                pattern("to_date", 1, DATE_TYPE));
        r.evaluated("to_timestamp", Signature.of(1, "timestamp_str", TIMESTAMP, "fmt", STRING),
                "The timestamp timestamp_str spells in format fmt (without fmt, yyyy-MM-dd[ HH:mm:ss[.SSSSSS]]).",
                pattern("to_timestamp", 1, (types, args) -> DataType.TIMESTAMP));
        r.evaluated("date_format", Signature.of(2, "timestamp", TIMESTAMP, "fmt", STRING),
                "The date or timestamp as text in the Spark datetime pattern fmt.",
                pattern("date_format", 1, StringFunctions.TEXT));
        r.evaluated("datediff", Signature.of(2, "endDate", DATE, "startDate", DATE),
                "The number of days from startDate to endDate.", StringFunctions.INT);
        r.evaluated("months_between", Signature.of(2, "timestamp1", TIMESTAMP, "timestamp2", TIMESTAMP, "roundOff", BOOLEAN),
                "Months from timestamp2 to timestamp1, whole when both are the same day of the month or both month"
                        + " ends, else with a fraction of 31-day months (rounded to 8 digits unless roundOff is false).",
                (types, args) -> DataType.FLOAT64);
        r.evaluated("add_months", Signature.of(2, "start_date", DATE, "num_months", INTEGER),
                "The date num_months after start_date (the month's last day when the day does not exist).", DATE_TYPE);
        r.evaluated("date_add|dateadd", Signature.of(2, "start_date", DATE, "num_days", INTEGER),
                "The date num_days after start_date.", DATE_TYPE);
        r.evaluated("date_sub", Signature.of(2, "start_date", DATE, "num_days", INTEGER),
                "The date num_days before start_date.", DATE_TYPE);
        r.evaluated("last_day", Signature.of(1, "date", DATE), "The last day of the date's month.", DATE_TYPE);
        r.evaluated("next_day", Signature.of(2, "start_date", DATE, "day_of_week", STRING),
                "The first date after start_date that is the named day of the week ('Mon', 'monday', ...).", DATE_TYPE);
        r.evaluated("unix_timestamp|to_unix_timestamp", Signature.of(0, "timeExp", TIMESTAMP, "fmt", STRING),
                "Seconds since 1970-01-01 00:00:00 UTC of the time (in the session time zone; now without arguments).",
                pattern("unix_timestamp", 1, (types, args) -> DataType.INT64), (name, args, context) -> args.isEmpty()
                        ? Literal.of(context.now().getEpochSecond()) : new FunctionCall(name, args, context.timeZone()));
        r.evaluated("from_unixtime", Signature.of(1, "unix_time", NUMBER, "fmt", STRING),
                "The time unix_time seconds after 1970-01-01 00:00:00 UTC, in the session time zone, as text in format"
                        + " fmt (default yyyy-MM-dd HH:mm:ss).", pattern("from_unixtime", 1, StringFunctions.TEXT));
        r.rewritten("current_date|curdate", Signature.of(0), "Today's date in the session time zone, one value per query.",
                (name, args, context) -> Literal.ofDate(context.now().atZone(context.zoneId()).toLocalDate()));
        r.rewritten("current_timestamp|now|localtimestamp", Signature.of(0),
                "The current time in the session time zone, one value per query.",
                (name, args, context) -> Literal.ofTimestamp(TemporalValues.of(
                        LocalDateTime.ofInstant(context.now(), context.zoneId()))));
    }

    /** {@code next}, after checking that a constant pattern argument (at {@code index}) is a valid datetime pattern. */
    private static ResultType pattern(String function, int index, ResultType next) {
        return (types, args) -> {
            if (args.size() > index && args.get(index) instanceof Literal l && l.value() instanceof String pattern) {
                formatter(pattern, function);
            }
            return next.type(types, args);
        };
    }

    /** The formatter of a Spark datetime pattern, or an error naming the function and the pattern. */
    public static DateTimeFormatter formatter(String pattern, String function) {
        try {
            return DateTimeFormatter.ofPattern(pattern, Locale.US);
        } catch (IllegalArgumentException e) {
            throw new SluiceException(function + "(): invalid datetime pattern '" + pattern + "': " + e.getMessage(), e);
        }
    }
}
