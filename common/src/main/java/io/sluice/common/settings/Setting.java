package io.sluice.common.settings;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import java.util.Locale;

/**
 * One setting, declared once: its name, type, default, bounds, scope and one line of
 * documentation. Values are parsed and checked here, so every way of setting it (config file,
 * environment, {@code --conf}, {@code -D}, {@code SET}) accepts and refuses the same values.
 *
 * @param defaultValue null when the setting has no fixed default (its doc line says what applies)
 * @param min the least value allowed, or null for no lower bound
 * @param max the greatest value allowed, or null for no upper bound
 */
public record Setting<T>(String name, SettingType<T> type, T defaultValue, T min, T max, Scope scope, String doc) {
    public Setting {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        requireNonNull(scope, "scope is null");
        requireNonNull(doc, "doc is null");
        if (!name.startsWith("sluice.")) {
            throw new IllegalArgumentException("setting names are lower case under sluice.: " + name);
        }
        if (doc.isBlank()) {
            throw new IllegalArgumentException("setting " + name + " has no doc line");
        }
        if ((min != null || max != null) && !type.ordered()) {
            throw new IllegalArgumentException("setting " + name + " has bounds but its values are not ordered");
        }
        if (min != null && max != null && type.compare(min, max) > 0) {
            throw new IllegalArgumentException("setting " + name + " has min above max");
        }
    }

    /** A setting of a node, unbounded until {@link #atLeast} or {@link #between}. */
    public static <T> Setting<T> node(String name, SettingType<T> type, T defaultValue, String doc) {
        return new Setting<>(lowerCase(name), type, defaultValue, null, null, Scope.NODE, doc).checkDefault();
    }

    /** A node setting read only as a {@code -D} system property ({@link Scope#PROPERTY}). */
    public static <T> Setting<T> property(String name, SettingType<T> type, T defaultValue, String doc) {
        return new Setting<>(lowerCase(name), type, defaultValue, null, null, Scope.PROPERTY, doc).checkDefault();
    }

    /**
     * A setting a session may change with {@code SET}; it must get bounds (a client must not be
     * able to ask for a million partitions), which the registry checks.
     */
    public static <T> Setting<T> session(String name, SettingType<T> type, T defaultValue, String doc) {
        return new Setting<>(lowerCase(name), type, defaultValue, null, null, Scope.SESSION, doc).checkDefault();
    }

    /**
     * A family of text settings passed on verbatim to another system: {@code prefix} (ending in a
     * dot) followed by any key of that system, in that system's spelling ({@code sluice.hadoop.} +
     * {@code fs.s3a.endpoint}). The registry answers every such name with {@link #member}.
     */
    public static Setting<String> family(String prefix, Scope scope, String doc) {
        if (!prefix.endsWith(".")) {
            throw new IllegalArgumentException("a setting family's prefix ends with a dot: " + prefix);
        }
        return new Setting<>(lowerCase(prefix), SettingType.STRING, null, null, null, scope, doc);
    }

    /** Whether this setting is a {@link #family} (its name is a prefix). */
    public boolean isFamily() {
        return name.endsWith(".");
    }

    /** The member {@code key} of this family: the setting named this prefix followed by {@code key}. */
    public Setting<T> member(String key) {
        if (!isFamily() || key.isEmpty() || key.startsWith(".")) {
            throw new IllegalArgumentException("no member '" + key + "' of " + name);
        }
        return new Setting<>(name + key, type, defaultValue, min, max, scope, doc);
    }

    private static String lowerCase(String name) {
        if (!name.equals(name.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("setting names are lower case under sluice.: " + name);
        }
        return name;
    }

    public Setting<T> atLeast(T least) {
        return new Setting<>(name, type, defaultValue, requireNonNull(least, "least is null"), null, scope, doc)
                .checkDefault();
    }

    public Setting<T> between(T least, T most) {
        return new Setting<>(name, type, defaultValue, requireNonNull(least, "least is null"),
                requireNonNull(most, "most is null"), scope, doc).checkDefault();
    }

    /**
     * Whether values are bounded on both sides, or unordered (true or false, text, a choice): what
     * the registry requires of every session setting, so no client can ask for an extreme.
     */
    public boolean bounded() {
        return (min != null && max != null) || !type.ordered();
    }

    /** {@code text} parsed and checked; a bad value is a {@link SluiceException} naming this setting. */
    public T parse(String text) {
        return check(type.parse(name, text));
    }

    /** {@code value} if within the bounds, else a {@link SluiceException} naming them. */
    public T check(T value) {
        requireNonNull(value, "value is null");
        boolean low = min != null && type.compare(value, min) < 0;
        boolean high = max != null && type.compare(value, max) > 0;
        if (low || high) {
            throw new SluiceException(name + " must be " + bounds() + ", not " + type.format(value));
        }
        return value;
    }

    /** The bounds as a phrase: {@code between 1 and 1000}, {@code at least 0}; empty when unbounded. */
    public String bounds() {
        if (min != null && max != null) {
            return "between " + type.format(min) + " and " + type.format(max);
        }
        if (min != null) {
            return "at least " + type.format(min);
        }
        return max != null ? "at most " + type.format(max) : "";
    }

    /** {@code sluice.task.max-attempts} is {@code SLUICE_TASK_MAX_ATTEMPTS}. */
    public String environmentName() {
        return "SLUICE_" + name.substring("sluice.".length()).toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** The default as it is written, or empty when there is none. */
    public String formattedDefault() {
        return defaultValue == null ? "" : type.format(defaultValue);
    }

    private Setting<T> checkDefault() {
        if (defaultValue != null) {
            try {
                check(defaultValue);
            } catch (SluiceException e) {
                throw new IllegalArgumentException("default out of bounds: " + e.getMessage(), e);
            }
        }
        return this;
    }
}
