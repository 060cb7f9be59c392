package io.sluice.common.settings;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * Resolved setting values: immutable, each checked against its declaration when set, and the
 * declared default for any setting not set. Names are looked up in one {@link SettingsRegistry},
 * so an unknown name is refused with a suggestion.
 */
public final class Settings {
    private final SettingsRegistry registry;
    private final Map<String, Value> values;

    /** A value set, with the setting it was set for. */
    private record Value(Setting<?> setting, Object value) {
    }

    private Settings(SettingsRegistry registry, Map<String, Value> values) {
        this.registry = requireNonNull(registry, "registry is null");
        this.values = values;
    }

    /** Defaults of the settings of {@link SettingsRegistry#loaded()}. */
    public static Settings defaults() {
        return defaults(SettingsRegistry.loaded());
    }

    public static Settings defaults(SettingsRegistry registry) {
        return new Settings(registry, Map.of());
    }

    /**
     * The registered settings {@code properties} gives a value (a name's text or null), such as
     * {@code System::getProperty}; other names are not asked about.
     */
    public static Settings fromProperties(SettingsRegistry registry, UnaryOperator<String> properties) {
        Settings out = defaults(registry);
        for (Setting<?> setting : registry.all()) {
            String text = properties.apply(setting.name());
            if (text != null && !text.isBlank()) {
                out = out.with(setting.name(), text);
            }
        }
        return out;
    }

    /** The JVM's {@code -Dsluice.*} system properties, over the defaults. */
    public static Settings fromSystemProperties() {
        return fromProperties(SettingsRegistry.loaded(), System::getProperty);
    }

    /**
     * One setting from its {@code -D} system property, else its default: for what a node reads
     * before any other settings exist (a bad value is an error naming the setting).
     */
    public static <T> T systemProperty(Setting<T> setting) {
        String text = System.getProperty(setting.name());
        return text == null || text.isBlank() ? setting.defaultValue() : setting.parse(text);
    }

    public SettingsRegistry registry() {
        return registry;
    }

    /** The value of {@code setting}: set here, else its default (null when it has none). */
    @SuppressWarnings("unchecked")
    public <T> T get(Setting<T> setting) {
        Value value = values.get(setting.name());
        return value == null ? setting.defaultValue() : (T) value.value();
    }

    /** The value of {@code setting}, empty when neither set nor defaulted. */
    public <T> Optional<T> find(Setting<T> setting) {
        return Optional.ofNullable(get(setting));
    }

    /** Whether {@code setting} was set explicitly (even to its default value). */
    public boolean isSet(Setting<?> setting) {
        return values.containsKey(setting.name());
    }

    /** These settings with {@code name} set to {@code text}; an unknown name or a bad value is an error naming it. */
    public Settings with(String name, String text) {
        return set(registry.setting(name), text);
    }

    public <T> Settings with(Setting<T> setting, T value) {
        // A value equal to the default is kept as set: set explicitly, it must still override what a
        // lower source (a -D property, the config file) said.
        Map<String, Value> changed = new LinkedHashMap<>(values);
        changed.put(setting.name(), new Value(setting, setting.check(value)));
        return new Settings(registry, Map.copyOf(changed));
    }

    /** These settings with every {@code name = text} of {@code texts} applied, in order. */
    public Settings withAll(Map<String, String> texts) {
        Settings out = this;
        for (Map.Entry<String, String> e : texts.entrySet()) {
            out = out.with(e.getKey(), e.getValue());
        }
        return out;
    }

    /** The settings set here (not defaulted), each as its type writes it, by name. */
    public Map<String, String> explicit() {
        Map<String, String> out = new TreeMap<>();
        values.values().forEach(v -> out.put(v.setting().name(), format(v.setting())));
        return out;
    }

    private <T> String format(Setting<T> setting) {
        return setting.type().format(get(setting));
    }

    private <T> Settings set(Setting<T> setting, String text) {
        return with(setting, setting.parse(text));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Settings other && values.equals(other.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return "Settings" + Redaction.values(explicit());
    }
}
