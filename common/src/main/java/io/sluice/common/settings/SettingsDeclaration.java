package io.sluice.common.settings;

import java.util.List;

/**
 * The settings one module declares, in one class per module. {@code common} cannot see the other
 * modules, so they announce their declaration through {@link java.util.ServiceLoader} (a
 * {@code META-INF/services/io.sluice.common.settings.SettingsDeclaration} file, as for
 * {@link io.sluice.common.WireClasses}); {@link SettingsRegistry#loaded()} holds every declaration
 * on the class path, and {@code docs/configuration.md} is rendered from it.
 */
public interface SettingsDeclaration {
    /** The settings, in the order the documentation lists them. */
    List<Setting<?>> settings();
}
