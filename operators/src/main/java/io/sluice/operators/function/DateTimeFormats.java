package io.sluice.operators.function;

import io.sluice.common.SluiceException;
import io.sluice.common.types.TemporalValues;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.util.Locale;

/**
 * Spark datetime patterns ({@code yyyy-MM-dd HH:mm:ss.SSS}) for one function in one task: the last
 * pattern's parser and formatter are kept, so a constant pattern is built once. Parsing is strict
 * (no 2020-02-30), fields the pattern lacks default to 1970-01-01 00:00:00, and text that does not
 * parse is an error naming the function, the text and the pattern, as Spark with ANSI mode on.
 */
final class DateTimeFormats {
    private final String function;
    private String lastPattern;
    private DateTimeFormatter parser;
    private DateTimeFormatter formatter;

    DateTimeFormats(String function) {
        this.function = function;
    }

    private void use(String pattern) {
        if (pattern.equals(lastPattern)) {
            return;
        }
        try {
            formatter = DateTimeFormatter.ofPattern(pattern, Locale.US);
            parser = new DateTimeFormatterBuilder().parseCaseInsensitive().appendPattern(yearAsProleptic(pattern))
                    .toFormatter(Locale.US).withResolverStyle(ResolverStyle.STRICT);
        } catch (IllegalArgumentException e) {
            throw new SluiceException(function + "(): invalid datetime pattern '" + pattern + "': " + e.getMessage(), e);
        }
        lastPattern = pattern;
    }

    /** 'y' (year of era) as 'u' (year) outside quotes, so that a strict parse needs no era. */
    private static String yearAsProleptic(String pattern) {
        StringBuilder b = new StringBuilder(pattern.length());
        boolean quoted = false;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            quoted ^= c == '\'';
            b.append(!quoted && c == 'y' ? 'u' : c);
        }
        return b.toString();
    }

    /** {@code text} in {@code pattern} as a wall-clock time, microseconds since 1970-01-01 00:00. */
    long parse(String text, String pattern) {
        use(pattern);
        try {
            TemporalAccessor t = parser.parse(text.strip());
            LocalDate date = LocalDate.of(field(t, ChronoField.YEAR, 1970), field(t, ChronoField.MONTH_OF_YEAR, 1),
                    field(t, ChronoField.DAY_OF_MONTH, 1));
            LocalTime time = LocalTime.of(field(t, ChronoField.HOUR_OF_DAY, 0), field(t, ChronoField.MINUTE_OF_HOUR, 0),
                    field(t, ChronoField.SECOND_OF_MINUTE, 0), field(t, ChronoField.NANO_OF_SECOND, 0));
            return TemporalValues.of(LocalDateTime.of(date, time));
        } catch (DateTimeException e) {
            throw new SluiceException(function + "(): cannot parse '" + text + "' with pattern '" + pattern + "'", e);
        }
    }

    private static int field(TemporalAccessor t, ChronoField field, int otherwise) {
        return t.isSupported(field) ? t.get(field) : otherwise;
    }

    /** A wall-clock time (microseconds) as text in {@code pattern}; zone fields show {@code zone}. */
    String format(long micros, String pattern, ZoneId zone) {
        use(pattern);
        try {
            return formatter.format(TemporalValues.toLocalDateTime(micros).atZone(zone));
        } catch (DateTimeException e) {
            throw new SluiceException(function + "(): cannot format with pattern '" + pattern + "': " + e.getMessage(), e);
        }
    }
}
