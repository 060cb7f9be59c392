package io.sluice.common.types;

import java.time.format.DateTimeParseException;

/**
 * What {@code CAST} makes of a text as a DATE, TIMESTAMP or BOOLEAN, with its error for a text that
 * does not convert: one definition for the cast kernel, row by row, and for a text constant converted
 * when a query is planned, so both give the same values and the same errors.
 */
public final class TextCasts {
    private TextCasts() {
    }

    /** The epoch day {@code text} spells ({@link TemporalValues#parseDate}). */
    public static long toDate(String text) {
        try {
            return TemporalValues.parseDate(text);
        } catch (DateTimeParseException | ArithmeticException e) {
            throw badCast(text, DataType.DATE32);
        }
    }

    /** The timestamp {@code text} spells ({@link TemporalValues#parseTimestamp}). */
    public static long toTimestamp(String text) {
        try {
            return TemporalValues.parseTimestamp(text);
        } catch (DateTimeParseException | ArithmeticException e) {
            throw badCast(text, DataType.TIMESTAMP);
        }
    }

    /** {@code true} or {@code false}, in any case, around blanks. */
    public static boolean toBool(String text) {
        String s = text.trim();
        if (s.equalsIgnoreCase("true")) {
            return true;
        }
        if (!s.equalsIgnoreCase("false")) {
            throw badCast(s, DataType.BOOL);
        }
        return false;
    }

    public static MalformedValueException badCast(String value, DataType target) {
        return new MalformedValueException(value, target);
    }
}
