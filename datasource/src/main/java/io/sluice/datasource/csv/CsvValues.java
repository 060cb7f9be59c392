package io.sluice.datasource.csv;

import io.sluice.common.types.DataType;
import io.sluice.common.types.TemporalValues;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Parses CSV field text, given as a range of a {@code char[]}, straight into primitives: no
 * intermediate {@code String} for numbers, dates and booleans, no boxing. Each {@code parse*}
 * method returns false when the text is not a valid value of its type and otherwise leaves the
 * value in {@link #longValue} or {@link #doubleValue}. One instance per reading thread.
 *
 * <p>With a {@code dateFormat} or {@code timestampFormat} option those values are parsed by
 * {@code java.time} through a reused view of the chars: slower than the built-in formats, which
 * stay on the allocation-free path.
 */
final class CsvValues {
    private static final double[] POWERS_OF_TEN = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    private static final long MAX_EXACT_DOUBLE_MANTISSA = 1L << 53;
    private static final int[] DAYS_IN_MONTH = {0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

    /** The result of the last successful integer, decimal, date or boolean (1/0) parse. */
    long longValue;
    /** The high word of the last decimal parsed for a precision of 19 to 38 ({@code longValue} holds the low word). */
    long highValue;
    /** The result of the last successful floating-point parse. */
    double doubleValue;

    /** The {@code dateFormat} and {@code timestampFormat} options; null for the built-in formats. */
    private final DateTimeFormatter dateFormat;
    private final DateTimeFormatter timestampFormat;
    private final CharSlice slice = new CharSlice();

    CsvValues() {
        this(CsvOptions.DEFAULTS);
    }

    CsvValues(CsvOptions options) {
        this.dateFormat = options.dateFormat() == null ? null : CsvOptions.formatter("dateFormat", options.dateFormat());
        this.timestampFormat = options.timestampFormat() == null ? null
                : CsvOptions.formatter("timestampFormat", options.timestampFormat());
    }

    /** A base-10 integer with optional sign that fits a {@code long}. */
    boolean parseLong(char[] c, int start, int end) {
        int i = start;
        if (i == end) {
            return false;
        }
        boolean negative = false;
        if (c[i] == '-' || c[i] == '+') {
            negative = c[i] == '-';
            i++;
            if (i == end) {
                return false;
            }
        }
        // Accumulate negatively so that Long.MIN_VALUE parses.
        long limit = negative ? Long.MIN_VALUE : -Long.MAX_VALUE;
        long multiplyMin = limit / 10;
        long result = 0;
        for (; i < end; i++) {
            int digit = c[i] - '0';
            if (digit < 0 || digit > 9 || result < multiplyMin) {
                return false;
            }
            result *= 10;
            if (result < limit + digit) {
                return false;
            }
            result -= digit;
        }
        longValue = negative ? result : -result;
        return true;
    }

    /** A 32-bit integer. */
    boolean parseInt(char[] c, int start, int end) {
        return parseLong(c, start, end) && longValue >= Integer.MIN_VALUE && longValue <= Integer.MAX_VALUE;
    }

    /**
     * A decimal number: {@code [+-]digits[.digits][(e|E)[+-]digits]}, also {@code .5} and {@code 5.},
     * or (any case, optional sign) {@code nan}, {@code inf}, {@code infinity}. Short numbers take an
     * exact fast path; the rest go to {@link Double#parseDouble}, which rounds correctly.
     */
    boolean parseDouble(char[] c, int start, int end) {
        int i = start;
        if (i == end) {
            return false;
        }
        boolean negative = false;
        if (c[i] == '-' || c[i] == '+') {
            negative = c[i] == '-';
            i++;
        }
        if (i < end && (c[i] | 0x20) >= 'a' && (c[i] | 0x20) <= 'z') {
            return parseSpecialDouble(c, i, end, negative);
        }
        long mantissa = 0;
        int significantDigits = 0;
        int digits = 0;
        int fractionDigits = 0;
        for (; i < end && c[i] >= '0' && c[i] <= '9'; i++) {
            digits++;
            if (mantissa != 0 || c[i] != '0') {
                significantDigits++;
                if (significantDigits <= 18) {
                    mantissa = mantissa * 10 + (c[i] - '0');
                }
            }
        }
        if (i < end && c[i] == '.') {
            i++;
            for (; i < end && c[i] >= '0' && c[i] <= '9'; i++) {
                digits++;
                fractionDigits++;
                if (mantissa != 0 || c[i] != '0') {
                    significantDigits++;
                    if (significantDigits <= 18) {
                        mantissa = mantissa * 10 + (c[i] - '0');
                    }
                }
            }
        }
        if (digits == 0) {
            return false;
        }
        int exponent = 0;
        if (i < end && (c[i] == 'e' || c[i] == 'E')) {
            i++;
            boolean negativeExponent = false;
            if (i < end && (c[i] == '-' || c[i] == '+')) {
                negativeExponent = c[i] == '-';
                i++;
            }
            int exponentDigits = 0;
            for (; i < end && c[i] >= '0' && c[i] <= '9'; i++) {
                exponentDigits++;
                if (exponent < 100_000) {
                    exponent = exponent * 10 + (c[i] - '0');
                }
            }
            if (exponentDigits == 0) {
                return false;
            }
            if (negativeExponent) {
                exponent = -exponent;
            }
        }
        if (i != end) {
            return false;
        }
        if (significantDigits == 0) {
            doubleValue = negative ? -0.0 : 0.0;
            return true;
        }
        int power = exponent - fractionDigits;
        if (significantDigits <= 18 && mantissa <= MAX_EXACT_DOUBLE_MANTISSA && power >= -22 && power <= 22) {
            // Both operands are exact doubles, so the one rounding step gives the correctly rounded result.
            double value = power >= 0 ? mantissa * POWERS_OF_TEN[power] : mantissa / POWERS_OF_TEN[-power];
            doubleValue = negative ? -value : value;
            return true;
        }
        doubleValue = Double.parseDouble(new String(c, start, end - start));
        return true;
    }

    private boolean parseSpecialDouble(char[] c, int i, int end, boolean negative) {
        if (equalsIgnoreCase(c, i, end, "nan")) {
            doubleValue = Double.NaN;
            return true;
        }
        if (equalsIgnoreCase(c, i, end, "inf") || equalsIgnoreCase(c, i, end, "infinity")) {
            doubleValue = negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            return true;
        }
        return false;
    }

    /**
     * A decimal {@code [+-]digits[.digits]} with at most {@code scale} fraction digits (extra trailing
     * zeros allowed) and at most {@code precision} digits in all; the result is the unscaled value.
     */
    boolean parseDecimal(char[] c, int start, int end, int precision, int scale) {
        if (precision > io.sluice.common.types.DataType.MAX_LONG_DECIMAL_PRECISION) {
            return parseWideDecimal(c, start, end, precision, scale);
        }
        int i = start;
        if (i == end) {
            return false;
        }
        boolean negative = false;
        if (c[i] == '-' || c[i] == '+') {
            negative = c[i] == '-';
            i++;
        }
        long unscaled = 0;
        int digits = 0;
        int integerDigits = 0;
        for (; i < end && c[i] >= '0' && c[i] <= '9'; i++) {
            digits++;
            if (unscaled != 0 || c[i] != '0') {
                integerDigits++;
                if (integerDigits > precision - scale) {
                    return false;
                }
                unscaled = unscaled * 10 + (c[i] - '0');
            }
        }
        int fractionDigits = 0;
        if (i < end && c[i] == '.') {
            i++;
            for (; i < end && c[i] >= '0' && c[i] <= '9'; i++) {
                digits++;
                if (fractionDigits < scale) {
                    unscaled = unscaled * 10 + (c[i] - '0');
                    fractionDigits++;
                } else if (c[i] != '0') {
                    return false;
                }
            }
        }
        if (digits == 0 || i != end) {
            return false;
        }
        for (; fractionDigits < scale; fractionDigits++) {
            unscaled *= 10;
        }
        longValue = negative ? -unscaled : unscaled;
        return true;
    }

    /** The same syntax for precision 19 to 38, into {@code highValue} and {@code longValue} (128 bits). */
    private boolean parseWideDecimal(char[] c, int start, int end, int precision, int scale) {
        for (int i = start; i < end; i++) {
            char ch = c[i];
            if (!(ch >= '0' && ch <= '9') && ch != '.' && !(i == start && (ch == '-' || ch == '+'))) {
                return false; // no exponent, no spaces: what the long parser accepts
            }
        }
        try {
            java.math.BigDecimal value = new java.math.BigDecimal(c, start, end - start);
            if (value.stripTrailingZeros().scale() > scale) {
                return false;
            }
            java.math.BigInteger unscaled = value.setScale(scale).unscaledValue();
            long high = io.sluice.kernels.Int128.high(unscaled);
            long low = io.sluice.kernels.Int128.low(unscaled);
            if (!io.sluice.kernels.Int128.fitsPrecision(high, low, precision)) {
                return false;
            }
            highValue = high;
            longValue = low;
            return true;
        } catch (NumberFormatException | ArithmeticException e) {
            return false;
        }
    }

    /** A date {@code yyyy-mm-dd} (or as the {@code dateFormat} option says); the result is days since 1970-01-01. */
    boolean parseDate(char[] c, int start, int end) {
        if (dateFormat != null) {
            try {
                longValue = dateFormat.parse(slice.of(c, start, end), LocalDate::from).toEpochDay();
                return true;
            } catch (DateTimeException e) {
                return false;
            }
        }
        if (end - start != 10 || c[start + 4] != '-' || c[start + 7] != '-') {
            return false;
        }
        int year = digits(c, start, 4);
        int month = digits(c, start + 5, 2);
        int day = digits(c, start + 8, 2);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > DAYS_IN_MONTH[month]) {
            return false;
        }
        if (month == 2 && day == 29 && !isLeapYear(year)) {
            return false;
        }
        longValue = epochDay(year, month, day);
        return true;
    }

    /** A timestamp as {@link io.sluice.common.types.TemporalValues#parseTimestamp} reads it; the result is microseconds. */
    boolean parseTimestamp(char[] c, int start, int end) {
        try {
            longValue = timestampFormat != null
                    ? TemporalValues.of(timestampFormat.parse(slice.of(c, start, end), LocalDateTime::from))
                    : TemporalValues.parseTimestamp(new String(c, start, end - start));
            return true;
        } catch (java.time.DateTimeException | ArithmeticException e) {
            return false;
        }
    }

    /** {@code true} or {@code false} in any case; the result is 1 or 0. */
    boolean parseBool(char[] c, int start, int end) {
        if (equalsIgnoreCase(c, start, end, "true")) {
            longValue = 1;
            return true;
        }
        if (equalsIgnoreCase(c, start, end, "false")) {
            longValue = 0;
            return true;
        }
        return false;
    }

    /**
     * The narrowest inferable type of a non-NULL field: BOOL, INT64, FLOAT64, DATE32, else UTF8.
     * A quoted field is classified by its text like any other; a quoted empty string is UTF8.
     */
    DataType classify(char[] c, int start, int end) {
        if (parseBool(c, start, end)) {
            return DataType.BOOL;
        }
        if (parseLong(c, start, end)) {
            return DataType.INT64;
        }
        if (parseDouble(c, start, end)) {
            return DataType.FLOAT64;
        }
        if (parseDate(c, start, end)) {
            return DataType.DATE32;
        }
        return DataType.UTF8;
    }

    private static int digits(char[] c, int start, int count) {
        int value = 0;
        for (int i = start; i < start + count; i++) {
            int digit = c[i] - '0';
            if (digit < 0 || digit > 9) {
                return -1;
            }
            value = value * 10 + digit;
        }
        return value;
    }

    private static boolean isLeapYear(int year) {
        return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    }

    /** Days from 1970-01-01 to a proleptic Gregorian date (years 0 to 9999 here). */
    static long epochDay(int year, int month, int day) {
        // Count from 0000-03-01 so that the leap day is the last day of a counted year.
        int y = month <= 2 ? year - 1 : year;
        int monthFromMarch = month <= 2 ? month + 9 : month - 3;
        long era = Math.floorDiv(y, 400);
        long yearOfEra = y - era * 400;
        long dayOfYear = (153L * monthFromMarch + 2) / 5 + day - 1;
        long dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return era * 146_097 + dayOfEra - 719_468;
    }

    private static boolean equalsIgnoreCase(char[] c, int start, int end, String lowerCase) {
        if (end - start != lowerCase.length()) {
            return false;
        }
        for (int i = 0; i < lowerCase.length(); i++) {
            if (Character.toLowerCase(c[start + i]) != lowerCase.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** A reusable read-only view of a range of a {@code char[]}. */
    private static final class CharSlice implements CharSequence {
        private char[] chars;
        private int start;
        private int length;

        CharSlice of(char[] c, int from, int to) {
            chars = c;
            start = from;
            length = to - from;
            return this;
        }

        @Override
        public int length() {
            return length;
        }

        @Override
        public char charAt(int index) {
            return chars[start + index];
        }

        @Override
        public CharSequence subSequence(int from, int to) {
            return new String(chars, start + from, to - from);
        }

        @Override
        public String toString() {
            return new String(chars, start, length);
        }
    }
}
