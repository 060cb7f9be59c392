package io.sluice.operators.function;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.TemporalValues;
import io.sluice.kernels.Col;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;

/**
 * The date and time functions' kernels (see {@code DateTimeFunctions} in module logical). Dates are
 * epoch days and timestamps wall-clock microseconds, computed on the longs that hold them; only
 * pattern parsing and formatting and the session-zone conversions go through {@code java.time}.
 */
final class DateTimeKernels {
    private static final String DEFAULT_TIME_PATTERN = "yyyy-MM-dd HH:mm:ss";

    private DateTimeKernels() {
    }

    /** The kernel of {@code name} in session time zone {@code zone}, or null when it is not a date function. */
    static FunctionKernel of(String name, ZoneId zone) {
        DateTimeFormats formats = new DateTimeFormats(name);
        return switch (name) {
            case "to_date" -> (args, rows, type) -> parsed(args, rows, formats, true);
            case "to_timestamp" -> (args, rows, type) -> parsed(args, rows, formats, false);
            case "date_format" -> (args, rows, type) -> format(Values.micros(args.get(0)), text(args, 1), rows, formats, zone);
            case "datediff" -> DateTimeKernels::datediff;
            case "months_between" -> DateTimeKernels::monthsBetween;
            case "add_months" -> (args, rows, type) -> shiftDays(args, rows, true, 1);
            case "date_add" -> (args, rows, type) -> shiftDays(args, rows, false, 1);
            case "date_sub" -> (args, rows, type) -> shiftDays(args, rows, false, -1);
            case "last_day" -> DateTimeKernels::lastDay;
            case "next_day" -> DateTimeKernels::nextDay;
            case "unix_timestamp" -> (args, rows, type) -> unixTimestamp(args, rows, formats, zone);
            case "from_unixtime" -> (args, rows, type) -> fromUnixtime(args, rows, formats, zone);
            default -> null;
        };
    }

    /** Argument {@code i} as text, or null when the call has no such argument. */
    private static Col text(List<Col> args, int i) {
        return i < args.size() ? Values.text(args.get(i)) : null;
    }

    private static Col parsed(List<Col> args, int rows, DateTimeFormats formats, boolean date) {
        DataType type = date ? DataType.DATE32 : DataType.TIMESTAMP;
        Col in = args.get(0);
        if (args.size() == 1 || in.type.kind() != DataType.Kind.UTF8) {
            Col cast = date ? Values.days(in) : Values.micros(in); // as CAST, as Spark without a pattern
            Col out = Col.allocate(type, rows, true);
            for (int row = 0; row < rows; row++) {
                out.nulls[row] = Values.anyNull(args, row) || cast.isNull(row);
                out.longs[row] = cast.longs[row];
            }
            return out;
        }
        Col fmt = Values.text(args.get(1));
        Col out = Col.allocate(type, rows, true);
        for (int row = 0; row < rows; row++) {
            if (Values.anyNull(args, row)) {
                out.nulls[row] = true;
                continue;
            }
            long micros = formats.parse(in.strings[row], fmt.strings[row]);
            out.longs[row] = date ? TemporalValues.microsToDate(micros) : micros;
        }
        return out;
    }

    private static Col format(Col micros, Col fmt, int rows, DateTimeFormats formats, ZoneId zone) {
        Col out = Col.allocate(DataType.UTF8, rows, true);
        for (int row = 0; row < rows; row++) {
            if (micros.isNull(row) || fmt != null && fmt.isNull(row)) {
                out.nulls[row] = true;
                continue;
            }
            out.strings[row] = formats.format(micros.longs[row], fmt == null ? DEFAULT_TIME_PATTERN : fmt.strings[row], zone);
        }
        return out;
    }

    private static Col datediff(List<Col> args, int rows, DataType type) {
        Col end = Values.days(args.get(0));
        Col start = Values.days(args.get(1));
        Col out = Col.allocate(DataType.INT32, rows, true);
        for (int row = 0; row < rows; row++) {
            out.nulls[row] = end.isNull(row) || start.isNull(row);
            out.longs[row] = end.longs[row] - start.longs[row];
        }
        return out;
    }

    /** {@code add_months} (months) or {@code date_add}/{@code date_sub} (days, times {@code sign}). */
    private static Col shiftDays(List<Col> args, int rows, boolean months, int sign) {
        Col days = Values.days(args.get(0));
        Col n = Values.longs(args.get(1));
        Col out = Col.allocate(DataType.DATE32, rows, true);
        for (int row = 0; row < rows; row++) {
            if (days.isNull(row) || n.isNull(row)) {
                out.nulls[row] = true;
                continue;
            }
            long by = n.longs[row];
            if (by != (int) by) {
                throw new SluiceException((months ? "add_months" : sign > 0 ? "date_add" : "date_sub") + "(): " + by
                        + " is out of range");
            }
            out.longs[row] = months ? TemporalValues.addMonthsToDay(days.longs[row], (int) by)
                    : Math.addExact(days.longs[row], sign * by);
        }
        return out;
    }

    private static long lastDayOf(long epochDay) {
        long packed = TemporalValues.civil(epochDay);
        long first = TemporalValues.epochDay(TemporalValues.yearOf(packed), TemporalValues.monthOf(packed), 1);
        return TemporalValues.addMonthsToDay(first, 1) - 1;
    }

    private static Col lastDay(List<Col> args, int rows, DataType type) {
        Col days = Values.days(args.get(0));
        Col out = Col.allocate(DataType.DATE32, rows, true);
        for (int row = 0; row < rows; row++) {
            out.nulls[row] = days.isNull(row);
            out.longs[row] = days.isNull(row) ? 0 : lastDayOf(days.longs[row]);
        }
        return out;
    }

    private static Col nextDay(List<Col> args, int rows, DataType type) {
        Col days = Values.days(args.get(0));
        Col names = Values.text(args.get(1));
        Col out = Col.allocate(DataType.DATE32, rows, true);
        for (int row = 0; row < rows; row++) {
            if (days.isNull(row) || names.isNull(row)) {
                out.nulls[row] = true;
                continue;
            }
            int target = dayOfWeek(names.strings[row]); // 0 Monday
            int current = (int) Math.floorMod(days.longs[row] + 3, 7L); // 1970-01-01 was a Thursday
            out.longs[row] = days.longs[row] + Math.floorMod(target - current - 1, 7) + 1;
        }
        return out;
    }

    private static int dayOfWeek(String name) {
        return switch (name.strip().toUpperCase(Locale.ROOT)) {
            case "MO", "MON", "MONDAY" -> 0;
            case "TU", "TUE", "TUESDAY" -> 1;
            case "WE", "WED", "WEDNESDAY" -> 2;
            case "TH", "THU", "THURSDAY" -> 3;
            case "FR", "FRI", "FRIDAY" -> 4;
            case "SA", "SAT", "SATURDAY" -> 5;
            case "SU", "SUN", "SUNDAY" -> 6;
            default -> throw new SluiceException("next_day(): '" + name + "' is not a day of the week; expected Mon, Tue,"
                    + " Wed, Thu, Fri, Sat or Sun (or the full name or two letters)");
        };
    }

    /** Spark's rule: whole months when the days of month agree or both are month ends, else a fraction of 31 days. */
    private static Col monthsBetween(List<Col> args, int rows, DataType type) {
        Col a = Values.micros(args.get(0));
        Col b = Values.micros(args.get(1));
        Col roundOff = args.size() > 2 ? args.get(2) : null;
        Col out = Col.allocate(DataType.FLOAT64, rows, true);
        for (int row = 0; row < rows; row++) {
            if (Values.anyNull(args, row)) {
                out.nulls[row] = true;
                continue;
            }
            long dayA = TemporalValues.microsToDate(a.longs[row]);
            long dayB = TemporalValues.microsToDate(b.longs[row]);
            long pa = TemporalValues.civil(dayA);
            long pb = TemporalValues.civil(dayB);
            long months = (TemporalValues.yearOf(pa) * 12 + TemporalValues.monthOf(pa))
                    - (TemporalValues.yearOf(pb) * 12 + TemporalValues.monthOf(pb));
            int domA = TemporalValues.dayOf(pa);
            int domB = TemporalValues.dayOf(pb);
            if (domA == domB || (dayA == lastDayOf(dayA) && dayB == lastDayOf(dayB))) {
                out.doubles[row] = months;
                continue;
            }
            long timeA = a.longs[row] - dayA * TemporalValues.MICROS_PER_DAY;
            long timeB = b.longs[row] - dayB * TemporalValues.MICROS_PER_DAY;
            double diff = months + ((domA - domB) * (double) TemporalValues.MICROS_PER_DAY + timeA - timeB)
                    / (31.0 * TemporalValues.MICROS_PER_DAY);
            boolean round = roundOff == null || roundOff.bools[row];
            out.doubles[row] = round ? Math.round(diff * 1e8) / 1e8 : diff;
        }
        return out;
    }

    private static Col unixTimestamp(List<Col> args, int rows, DateTimeFormats formats, ZoneId zone) {
        Col in = args.get(0);
        Col micros = in.type.kind() == DataType.Kind.UTF8 ? null : Values.micros(in);
        Col fmt = text(args, 1);
        Col out = Col.allocate(DataType.INT64, rows, true);
        for (int row = 0; row < rows; row++) {
            if (Values.anyNull(args, row)) {
                out.nulls[row] = true;
                continue;
            }
            long local = micros != null ? micros.longs[row]
                    : formats.parse(in.strings[row], fmt == null ? DEFAULT_TIME_PATTERN : fmt.strings[row]);
            out.longs[row] = TemporalValues.toLocalDateTime(local).atZone(zone).toEpochSecond();
        }
        return out;
    }

    private static Col fromUnixtime(List<Col> args, int rows, DateTimeFormats formats, ZoneId zone) {
        Col seconds = args.get(0).type.kind() == DataType.Kind.FLOAT64
                ? Values.cast(args.get(0), DataType.INT64) : Values.longs(args.get(0));
        Col local = Col.allocate(DataType.TIMESTAMP, rows, true);
        for (int row = 0; row < rows; row++) {
            if (seconds.isNull(row)) {
                local.nulls[row] = true;
                continue;
            }
            local.longs[row] = TemporalValues.of(LocalDateTime.ofInstant(Instant.ofEpochSecond(seconds.longs[row]), zone));
        }
        return format(local, text(args, 1), rows, formats, zone);
    }
}
