package io.sluice.logical.function;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.ArithmeticMode;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;

/**
 * What a call may depend on beyond its arguments, fixed when the query is planned: the session time
 * zone (Spark's {@code spark.sql.session.timeZone}) that {@code unix_timestamp}, {@code from_unixtime}
 * and {@code current_timestamp} read timestamps in, and the instant the query started, so that
 * {@code current_date} and {@code current_timestamp} are one value in every row and task; and what
 * arithmetic and casts do with what does not fit ({@code spark.sql.ansi.enabled}). {@link ArithmeticMode#STRICT}
 * is the mode of the ansi dialect and of the DataFrame API: there, functions whose Spark and DuckDB
 * meanings differ ({@code concat} with a NULL, {@code dayofweek}) follow DuckDB, elsewhere Spark.
 */
public record CallContext(String timeZone, Instant now, ArithmeticMode mode) {
    public CallContext {
        requireNonNull(timeZone, "timeZone is null");
        requireNonNull(now, "now is null");
        requireNonNull(mode, "mode is null");
        zone(timeZone);
    }

    /** In {@code timeZone} at {@code now}, arithmetic in {@link ArithmeticMode#STRICT} mode. */
    public CallContext(String timeZone, Instant now) {
        this(timeZone, now, ArithmeticMode.STRICT);
    }

    /** UTC, now, arithmetic in {@link ArithmeticMode#STRICT} mode. */
    public static CallContext utc() {
        return new CallContext("UTC", Instant.now());
    }

    /** The same context with arithmetic in {@code mode} ({@code try_add} calls its addition so). */
    public CallContext withMode(ArithmeticMode mode) {
        return new CallContext(timeZone, now, mode);
    }

    public ZoneId zoneId() {
        return zone(timeZone);
    }

    /** The zone {@code id} names (a region such as {@code Europe/Paris}, or an offset such as {@code +02:00}). */
    public static ZoneId zone(String id) {
        try {
            return ZoneId.of(id);
        } catch (DateTimeException e) {
            throw new SluiceException("unknown time zone '" + id + "': expected a region such as 'Europe/Paris' "
                    + "or an offset such as '+02:00'", e);
        }
    }
}
