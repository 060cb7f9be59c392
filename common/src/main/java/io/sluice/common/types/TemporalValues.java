package io.sluice.common.types;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;

/**
 * Date and timestamp arithmetic on primitive values, for every module: a date is days since
 * 1970-01-01, a timestamp microseconds since 1970-01-01 00:00:00 without time zone. The civil
 * calendar conversions are Howard Hinnant's {@code civil_from_days}/{@code days_from_civil}
 * (proleptic Gregorian, as {@link LocalDate}), so hot loops allocate nothing. Parsing and text follow
 * DuckDB: {@code yyyy-mm-dd[( |T)hh:mm[:ss[.ffffff]]]}, printed with the fraction only when it is
 * not zero, trailing zeros dropped.
 */
public final class TemporalValues {
    public static final long MICROS_PER_SECOND = 1_000_000L;
    public static final long MICROS_PER_MINUTE = 60 * MICROS_PER_SECOND;
    public static final long MICROS_PER_HOUR = 60 * MICROS_PER_MINUTE;
    public static final long MICROS_PER_DAY = 24 * MICROS_PER_HOUR;

    private TemporalValues() {
    }

    /** Year, month (1-12) and day (1-31) of an epoch day, packed as {@code year * 10000 + month * 100 + day}. */
    public static long civil(long epochDay) {
        long z = epochDay + 719468;
        long era = Math.floorDiv(z, 146097);
        long doe = z - era * 146097;
        long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        long day = doy - (153 * mp + 2) / 5 + 1;
        long month = mp < 10 ? mp + 3 : mp - 9;
        long year = yoe + era * 400 + (month <= 2 ? 1 : 0);
        return year * 10000 + (year < 0 ? -1 : 1) * (month * 100 + day);
    }

    public static long yearOf(long packed) {
        return packed / 10000;
    }

    public static int monthOf(long packed) {
        return (int) Math.abs(packed % 10000) / 100;
    }

    public static int dayOf(long packed) {
        return (int) Math.abs(packed % 100);
    }

    /** The epoch day of a civil date (month 1-12, day 1-31). */
    public static long epochDay(long year, int month, int day) {
        long y = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(y, 400);
        long yoe = y - era * 400;
        long mp = month > 2 ? month - 3 : month + 9;
        long doy = (153 * mp + 2) / 5 + day - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097 + doe - 719468;
    }

    private static boolean leap(long year) {
        return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    }

    private static int monthLength(long year, int month) {
        return switch (month) {
            case 2 -> leap(year) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** An epoch day plus whole months, the day clamped to the target month's last day. */
    public static long addMonthsToDay(long epochDay, int months) {
        if (months == 0) {
            return epochDay;
        }
        long packed = civil(epochDay);
        long total = yearOf(packed) * 12 + (monthOf(packed) - 1) + months;
        long year = Math.floorDiv(total, 12);
        int month = (int) Math.floorMod(total, 12) + 1;
        return epochDay(year, month, Math.min(dayOf(packed), monthLength(year, month)));
    }

    public static long dateToMicros(long epochDay) {
        return Math.multiplyExact(epochDay, MICROS_PER_DAY);
    }

    /** The date (epoch day) a timestamp falls on. */
    public static long microsToDate(long micros) {
        return Math.floorDiv(micros, MICROS_PER_DAY);
    }

    /** A timestamp plus months (day clamped), then days, then microseconds; overflow is an ArithmeticException. */
    public static long addInterval(long micros, int months, int days, long plusMicros) {
        long day = microsToDate(micros);
        long ofDay = micros - day * MICROS_PER_DAY;
        long shifted = Math.addExact(addMonthsToDay(day, months), days);
        return Math.addExact(Math.addExact(Math.multiplyExact(shifted, MICROS_PER_DAY), ofDay), plusMicros);
    }

    /** The start of the {@code unit} containing epoch day {@code day}: year, quarter, month, week (ISO, Monday) or day. */
    public static long truncDay(long day, TruncUnit unit) {
        return switch (unit) {
            case YEAR, QUARTER, MONTH -> {
                long packed = civil(day);
                int month = monthOf(packed);
                int first = unit == TruncUnit.YEAR ? 1 : unit == TruncUnit.QUARTER ? (month - 1) / 3 * 3 + 1 : month;
                yield epochDay(yearOf(packed), first, 1);
            }
            case WEEK -> day - Math.floorMod(day + 3, 7); // 1970-01-01 was a Thursday
            default -> day;
        };
    }

    /** The start of the {@code unit} containing timestamp {@code micros}. */
    public static long truncMicros(long micros, TruncUnit unit) {
        return switch (unit) {
            case YEAR, QUARTER, MONTH, WEEK, DAY -> truncDay(microsToDate(micros), unit) * MICROS_PER_DAY;
            case HOUR -> micros - Math.floorMod(micros, MICROS_PER_HOUR);
            case MINUTE -> micros - Math.floorMod(micros, MICROS_PER_MINUTE);
            case SECOND -> micros - Math.floorMod(micros, MICROS_PER_SECOND);
            case MILLISECOND -> micros - Math.floorMod(micros, 1000L);
            case MICROSECOND -> micros;
        };
    }

    /** The parts {@code date_trunc} truncates to, from coarsest to finest. */
    public enum TruncUnit {
        YEAR, QUARTER, MONTH, WEEK, DAY, HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND;

        /** Whether truncating a date to this unit needs no time of day. */
        public boolean dateUnit() {
            return ordinal() <= DAY.ordinal();
        }
    }

    public static LocalDateTime toLocalDateTime(long micros) {
        long days = microsToDate(micros);
        long ofDay = micros - days * MICROS_PER_DAY;
        return LocalDateTime.of(LocalDate.ofEpochDay(days), LocalTime.ofNanoOfDay(ofDay * 1000));
    }

    public static long of(LocalDateTime t) {
        return Math.addExact(dateToMicros(t.toLocalDate().toEpochDay()), t.toLocalTime().toNanoOfDay() / 1000);
    }

    /**
     * Parses {@code yyyy-mm-dd}, optionally followed by a space or {@code T} and a time
     * {@code hh:mm[:ss[.fraction]]} (fraction up to microseconds; finer digits are cut).
     *
     * @throws DateTimeParseException when the text is not such a timestamp
     */
    public static long parseTimestamp(String text) {
        String s = text.strip();
        int split = s.indexOf(' ');
        if (split < 0) {
            split = s.indexOf('T');
        }
        LocalDate date = LocalDate.parse(split < 0 ? s : s.substring(0, split));
        if (split < 0) {
            return dateToMicros(date.toEpochDay());
        }
        LocalTime time = LocalTime.parse(s.substring(split + 1).strip());
        return of(LocalDateTime.of(date, time));
    }

    /** A date's epoch day from {@code yyyy-mm-dd}, or from a timestamp's text (its date part). */
    public static long parseDate(String text) {
        String s = text.strip();
        if (s.length() > 10 && (s.charAt(10) == ' ' || s.charAt(10) == 'T')) {
            return microsToDate(parseTimestamp(s));
        }
        return LocalDate.parse(s).toEpochDay();
    }

    public static String formatTimestamp(long micros) {
        return formatTimestamp(toLocalDateTime(micros));
    }

    public static String formatTimestamp(LocalDateTime t) {
        StringBuilder b = new StringBuilder(26);
        b.append(t.toLocalDate()).append(' ');
        two(b, t.getHour()).append(':');
        two(b, t.getMinute()).append(':');
        two(b, t.getSecond());
        int micros = t.getNano() / 1000;
        if (micros != 0) {
            String fraction = Integer.toString(1_000_000 + micros).substring(1);
            int end = fraction.length();
            while (fraction.charAt(end - 1) == '0') {
                end--;
            }
            b.append('.').append(fraction, 0, end);
        }
        return b.toString();
    }

    private static StringBuilder two(StringBuilder b, int v) {
        if (v < 10) {
            b.append('0');
        }
        return b.append(v);
    }
}
