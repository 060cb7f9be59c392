package io.sluice.common;

import java.time.Duration;
import java.util.Locale;

/** Durations as settings write them: {@code 0}, or a whole number and a unit: {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}. */
public final class Durations {
    private Durations() {
    }

    /** Parses {@code value} of setting {@code name}; a bad value is a {@link SluiceException} naming both. */
    public static Duration parse(String name, String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        if (v.equals("0")) {
            return Duration.ZERO;
        }
        int split = 0;
        while (split < v.length() && Character.isDigit(v.charAt(split))) {
            split++;
        }
        String unit = v.substring(split).strip();
        try {
            long n = Long.parseLong(v.substring(0, split));
            return switch (unit) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> throw new NumberFormatException(unit);
            };
        } catch (NumberFormatException e) {
            throw new SluiceException("setting " + name + " needs a duration such as 500ms, 30s, 2m or 1h, not '"
                    + value + "'");
        }
    }
}
