package io.sluice.common.settings;

import static java.util.Objects.requireNonNull;

import io.sluice.common.NameSuggestions;
import io.sluice.common.SluiceException;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * Every declared setting by name. {@link #loaded()} is the registry of all
 * {@link SettingsDeclaration}s on the class path; names are unique and every session setting is
 * bounded, or the registry refuses to build.
 */
public final class SettingsRegistry {
    private final Map<String, Setting<?>> byName;
    private final List<Setting<?>> families;

    private SettingsRegistry(Map<String, Setting<?>> byName) {
        this.byName = byName;
        this.families = byName.values().stream().filter(Setting::isFamily).toList();
    }

    public static SettingsRegistry of(Collection<? extends Setting<?>> settings) {
        Map<String, Setting<?>> byName = new LinkedHashMap<>();
        for (Setting<?> setting : settings) {
            if (byName.putIfAbsent(setting.name(), setting) != null) {
                throw new IllegalArgumentException("setting " + setting.name() + " is declared twice");
            }
            if (setting.scope() == Scope.SESSION && !setting.bounded()) {
                throw new IllegalArgumentException("session setting " + setting.name() + " has no bounds");
            }
        }
        return new SettingsRegistry(Map.copyOf(byName));
    }

    /** The settings every module on the class path declares (providers in class-name order). */
    public static SettingsRegistry loaded() {
        return Loaded.REGISTRY;
    }

    /**
     * The setting called {@code name}, or the member of the {@linkplain Setting#family family} whose
     * prefix it starts with; an unknown name is an error suggesting the closest known one.
     */
    public Setting<?> setting(String name) {
        Setting<?> setting = find(requireNonNull(name, "name is null"));
        if (setting == null) {
            throw new SluiceException("unknown setting '" + name + "'" + suggestion(name));
        }
        return setting;
    }

    public boolean contains(String name) {
        return find(name) != null;
    }

    private Setting<?> find(String name) {
        Setting<?> setting = byName.get(name);
        if (setting != null) {
            return setting.isFamily() ? null : setting;
        }
        for (Setting<?> family : families) {
            if (name.startsWith(family.name()) && name.length() > family.name().length()
                    && name.charAt(family.name().length()) != '.') {
                return family.member(name.substring(family.name().length()));
            }
        }
        return null;
    }

    /** Every setting, by name; a {@linkplain Setting#family family} appears once, under its prefix. */
    public List<Setting<?>> all() {
        return byName.values().stream().sorted(Comparator.comparing(Setting::name)).toList();
    }

    private String suggestion(String name) {
        String suggestion = NameSuggestions.didYouMean(name, byName.keySet());
        return suggestion.isEmpty() ? "; the settings are listed in docs/configuration.md" : ";" + suggestion;
    }

    /** Loaded once, on first use. */
    private static final class Loaded {
        static final SettingsRegistry REGISTRY = of(ServiceLoader.load(SettingsDeclaration.class, SettingsRegistry.class.getClassLoader()).stream()
                .map(ServiceLoader.Provider::get)
                .sorted(Comparator.comparing(d -> d.getClass().getName()))
                .flatMap(d -> d.settings().stream())
                .toList());
    }
}
