package io.sluice.common.settings;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * How the values of one kind of setting are written: the only place Sluice parses and prints a
 * setting's text. A bad value is a {@link SluiceException} naming the setting, what it must be and
 * the text given.
 *
 * @param <T> the parsed value's class
 */
public final class SettingType<T> {
    public static final SettingType<Integer> INT = new SettingType<>("a whole number", text -> Integer.parseInt(text.strip()),
            String::valueOf, Comparator.naturalOrder());
    public static final SettingType<Long> LONG = new SettingType<>("a whole number", text -> Long.parseLong(text.strip()),
            String::valueOf, Comparator.naturalOrder());
    public static final SettingType<Double> DOUBLE = new SettingType<>("a number", SettingType::parseDouble,
            String::valueOf, Comparator.naturalOrder());
    public static final SettingType<Boolean> BOOLEAN = new SettingType<>("true or false", SettingType::parseBoolean,
            String::valueOf, null);
    public static final SettingType<String> STRING = new SettingType<>("text", String::strip, Function.identity(), null);
    /** {@code 0}, or a whole number and a unit: {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}. */
    public static final SettingType<Duration> DURATION = new SettingType<>("a duration such as 500ms, 30s, 2m or 1h",
            SettingType::parseDuration, SettingType::formatDuration, Comparator.naturalOrder());
    /** Bytes: a whole number with an optional k, m, g or t suffix (powers of 1024), optionally followed by b. */
    public static final SettingType<Long> BYTE_SIZE = new SettingType<>("a size such as 64m, 2g or 1048576",
            SettingType::parseByteSize, SettingType::formatByteSize, Comparator.naturalOrder());

    private final String description;
    private final Function<String, T> parser;
    private final Function<T, String> formatter;
    private final Comparator<? super T> order;

    private SettingType(String description, Function<String, T> parser, Function<T, String> formatter,
            Comparator<? super T> order) {
        this.description = requireNonNull(description, "description is null");
        this.parser = requireNonNull(parser, "parser is null");
        this.formatter = requireNonNull(formatter, "formatter is null");
        this.order = order;
    }

    /** Values written as the enum's constant names in lower case (case-insensitive), in declaration order. */
    public static <E extends Enum<E>> SettingType<E> enumeration(Class<E> type) {
        return enumeration(type, e -> List.of(e.name().toLowerCase(Locale.ROOT)));
    }

    /**
     * Values written as the names {@code names} gives each constant (case-insensitive); the first
     * name is how it prints, later ones are accepted aliases.
     */
    public static <E extends Enum<E>> SettingType<E> enumeration(Class<E> type, Function<E, List<String>> names) {
        Map<String, E> byName = new LinkedHashMap<>();
        Map<E, String> printed = new LinkedHashMap<>();
        for (E value : type.getEnumConstants()) {
            List<String> written = names.apply(value);
            printed.put(value, written.get(0));
            written.forEach(name -> byName.put(name.toLowerCase(Locale.ROOT), value));
        }
        String choices = String.join(", ", printed.values());
        int last = choices.lastIndexOf(", ");
        String description = last < 0 ? choices : choices.substring(0, last) + " or " + choices.substring(last + 2);
        return new SettingType<>(description, text -> {
            E value = byName.get(text.strip().toLowerCase(Locale.ROOT));
            if (value == null) {
                throw new IllegalArgumentException(text);
            }
            return value;
        }, printed::get, null);
    }

    /** What a valid value looks like, as error messages and the documentation say it. */
    public String description() {
        return description;
    }

    /** {@code text} as a value of setting {@code name}; a bad value is an error naming both. */
    public T parse(String name, String text) {
        try {
            return parser.apply(requireNonNull(text, "text is null"));
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new SluiceException(name + " must be " + description + ", not '" + text + "'");
        }
    }

    /** {@code value} as this type parses it back. */
    public String format(T value) {
        return formatter.apply(value);
    }

    /** Whether values are ordered, so that a setting of this type can have bounds. */
    public boolean ordered() {
        return order != null;
    }

    int compare(T a, T b) {
        return order.compare(a, b);
    }

    private static double parseDouble(String text) {
        double value = Double.parseDouble(text.strip());
        if (!Double.isFinite(value)) {
            throw new NumberFormatException(text);
        }
        return value;
    }

    private static boolean parseBoolean(String text) {
        String t = text.strip();
        if (t.equalsIgnoreCase("true") || t.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(t);
        }
        throw new IllegalArgumentException(text);
    }

    private static Duration parseDuration(String text) {
        String v = text.strip().toLowerCase(Locale.ROOT);
        if (v.equals("0")) {
            return Duration.ZERO;
        }
        int split = 0;
        while (split < v.length() && Character.isDigit(v.charAt(split))) {
            split++;
        }
        long n = Long.parseLong(v.substring(0, split));
        return switch (v.substring(split).strip()) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> throw new IllegalArgumentException(text);
        };
    }

    private static String formatDuration(Duration d) {
        long millis = d.toMillis();
        if (millis == 0) {
            return "0";
        }
        if (millis % 3_600_000 == 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis % 60_000 == 0) {
            return millis / 60_000 + "m";
        }
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }

    private static final String SIZE_UNITS = " kmgt";

    private static long parseByteSize(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (t.endsWith("b")) {
            t = t.substring(0, t.length() - 1);
        }
        int shift = t.isEmpty() ? 0 : 10 * Math.max(0, SIZE_UNITS.indexOf(t.charAt(t.length() - 1)));
        if (shift != 0) {
            t = t.substring(0, t.length() - 1).strip();
        }
        long n = Long.parseLong(t);
        if (Math.abs(n) > (Long.MAX_VALUE >> shift)) {
            throw new ArithmeticException("overflow");
        }
        return n << shift;
    }

    private static String formatByteSize(long bytes) {
        int unit = 0;
        long n = bytes;
        while (n != 0 && n % 1024 == 0 && unit < SIZE_UNITS.length() - 1) {
            n /= 1024;
            unit++;
        }
        return unit == 0 ? Long.toString(bytes) : n + SIZE_UNITS.substring(unit, unit + 1);
    }

    @Override
    public String toString() {
        return description;
    }
}
