package io.sluice.datasource.csv;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.common.types.DataType;
import java.time.LocalDate;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CsvValuesTest {
    private final CsvValues values = new CsvValues();

    private boolean parseLong(String s) {
        return values.parseLong(s.toCharArray(), 0, s.length());
    }

    private boolean parseDouble(String s) {
        return values.parseDouble(s.toCharArray(), 0, s.length());
    }

    @Test
    void longsParseExactlyAndRejectOverflow() {
        assertThat(parseLong("9223372036854775807")).isTrue();
        assertThat(values.longValue).isEqualTo(Long.MAX_VALUE);
        assertThat(parseLong("-9223372036854775808")).isTrue();
        assertThat(values.longValue).isEqualTo(Long.MIN_VALUE);
        assertThat(parseLong("+42")).isTrue();
        assertThat(values.longValue).isEqualTo(42);
        assertThat(parseLong("-0")).isTrue();
        assertThat(values.longValue).isZero();
        for (String bad : new String[] {"9223372036854775808", "-9223372036854775809", "", "-", "+", "1a", "1.0", " 1",
                "99999999999999999999"}) {
            assertThat(parseLong(bad)).as(bad).isFalse();
        }
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 10_000; i++) {
            long v = random.nextLong() >> random.nextInt(64);
            assertThat(parseLong(Long.toString(v))).isTrue();
            assertThat(values.longValue).isEqualTo(v);
        }
    }

    @Test
    void doublesMatchDoubleParseDoubleBitForBit() {
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 8_000; i++) {
            double v = switch (i % 4) {
                case 0 -> Double.longBitsToDouble(random.nextLong());
                case 1 -> random.nextDouble() * Math.pow(10, random.nextInt(-10, 12));
                case 2 -> random.nextInt(-1_000_000, 1_000_000) / 100.0;
                default -> -random.nextDouble();
            };
            if (Double.isNaN(v) || Double.isInfinite(v)) {
                continue;
            }
            String[] texts = i % 10 == 0
                    ? new String[] {Double.toString(v), String.format(Locale.ROOT, "%.3f", v),
                        String.format(Locale.ROOT, "%.17e", v), String.format(Locale.ROOT, "%.6g", v)}
                    : new String[] {Double.toString(v), Double.toString((float) v), Long.toString((long) v)};
            for (String text : texts) {
                boolean parsed = parseDouble(text);
                if (!parsed || Double.doubleToLongBits(values.doubleValue) != Double.doubleToLongBits(Double.parseDouble(text))) {
                    assertThat(parsed).as(text).isTrue();
                    assertThat(values.doubleValue).as(text).isEqualTo(Double.parseDouble(text));
                }
            }
        }
    }

    @Test
    void doubleSyntaxIsStrict() {
        for (String ok : new String[] {"1", "1.", ".5", "-0.0", "+3.25", "1e5", "1E-5", "2.5e+3", "inf", "-Infinity", "NaN",
                "0.000000000000000000000000001", "123456789012345678901234567890"}) {
            assertThat(parseDouble(ok)).as(ok).isTrue();
            Double expected = Double.parseDouble(ok.replace("inf", "Infinity"));
            assertThat(Double.valueOf(values.doubleValue)).as(ok).isEqualTo(expected);
        }
        assertThat(Double.doubleToLongBits(parseDouble("-0") ? values.doubleValue : 1)).isEqualTo(Double.doubleToLongBits(-0.0));
        for (String bad : new String[] {"", "-", ".", "e5", "1e", "1e+", "1.2.3", "0x10", "1d", "1f", "1,5", "infinite", " 1"}) {
            assertThat(parseDouble(bad)).as(bad).isFalse();
        }
    }

    @Test
    void datesMatchLocalDate() {
        for (long day = LocalDate.of(1, 1, 1).toEpochDay(); day <= LocalDate.of(9999, 12, 31).toEpochDay(); day += 97) {
            String text = LocalDate.ofEpochDay(day).toString();
            if (!values.parseDate(text.toCharArray(), 0, 10) || values.longValue != day) {
                assertThat(values.longValue).as(text).isEqualTo(day);
            }
        }
        for (String bad : new String[] {"2023-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "24-01-01", "2024/01/01",
                "2024-1-01", "abcd-ef-gh"}) {
            assertThat(values.parseDate(bad.toCharArray(), 0, bad.length())).as(bad).isFalse();
        }
        assertThat(values.parseDate("2024-02-29".toCharArray(), 0, 10)).isTrue();
        assertThat(values.parseDate("2000-02-29".toCharArray(), 0, 10)).isTrue();
        assertThat(values.parseDate("1900-02-29".toCharArray(), 0, 10)).isFalse();
    }

    @Test
    void decimalsScaleToUnscaledLongs() {
        String[][] cases = {{"12.34", "1234"}, {"-0.5", "-50"}, {"7", "700"}, {"0.10", "10"}, {"1.200", "120"},
            {"+9999999999.99", "999999999999"}, {".25", "25"}, {"3.", "300"}};
        for (String[] c : cases) {
            assertThat(values.parseDecimal(c[0].toCharArray(), 0, c[0].length(), 12, 2)).as(c[0]).isTrue();
            assertThat(values.longValue).as(c[0]).isEqualTo(Long.parseLong(c[1]));
        }
        for (String bad : new String[] {"1.234", "10000000000", "1e3", "", "-", "abc", "1.2.3"}) {
            assertThat(values.parseDecimal(bad.toCharArray(), 0, bad.length(), 12, 2)).as(bad).isFalse();
        }
    }

    @Test
    void parsesDecimalsOfPrecisionThirtyEightIntoTwoWords() {
        String[][] cases = {{"-123456789012345678901234567.89", "-12345678901234567890123456789"}, {"7", "700"},
            {"+99999999999999999999999999999999999.99", "9999999999999999999999999999999999999"}, {".5", "50"}};
        for (String[] c : cases) {
            assertThat(values.parseDecimal(c[0].toCharArray(), 0, c[0].length(), 37, 2)).as(c[0]).isTrue();
            assertThat(io.sluice.kernels.Int128.toBigInteger(values.highValue, values.longValue)).as(c[0])
                    .isEqualTo(new java.math.BigInteger(c[1]));
        }
        for (String bad : new String[] {"1.234", "100000000000000000000000000000000000", "1e3", "", "-", "1.2.3", " 1"}) {
            assertThat(values.parseDecimal(bad.toCharArray(), 0, bad.length(), 37, 2)).as(bad).isFalse();
        }
    }

    @Test
    void classifiesTheNarrowestType() {
        String[][] cases = {{"true", "bool"}, {"FALSE", "bool"}, {"12", "int64"}, {"-12.5", "float64"},
            {"9223372036854775808", "float64"}, {"2024-01-31", "date32"}, {"2024-02-30", "utf8"}, {"yes", "utf8"},
            {"", "utf8"}, {"1e3", "float64"}};
        for (String[] c : cases) {
            DataType type = values.classify(c[0].toCharArray(), 0, c[0].length());
            assertThat(type.toString()).as(c[0]).isEqualTo(c[1]);
        }
    }
}
