package io.sluice.common.net;

import static java.util.Objects.requireNonNull;

import io.sluice.common.settings.Setting;
import io.sluice.common.settings.SettingType;
import io.sluice.common.settings.Settings;
import java.time.Duration;
import java.util.List;

/**
 * The settings that bound one server's {@link UnprovenConnections}: {@code PREFIX.unauthenticated.max-per-address},
 * {@code PREFIX.unauthenticated.max-total} and {@code PREFIX.auth-timeout}, read as {@code -D} system properties.
 */
public record UnprovenLimitSettings(Setting<Integer> perAddress, Setting<Integer> total, Setting<Duration> deadline) {
    public UnprovenLimitSettings {
        requireNonNull(perAddress, "perAddress is null");
        requireNonNull(total, "total is null");
        requireNonNull(deadline, "deadline is null");
    }

    /** The settings of the server {@code what} ("HTTP", "shuffle server"), named under {@code prefix}. */
    public static UnprovenLimitSettings declare(String prefix, String what, int perAddress, int total) {
        String connections = "connections to the " + what + " that have not proven the secret yet, from ";
        return new UnprovenLimitSettings(
                Setting.property(prefix + ".unauthenticated.max-per-address", SettingType.INT, perAddress,
                        connections + "one address; past it the oldest is closed").between(1, 65_536),
                Setting.property(prefix + ".unauthenticated.max-total", SettingType.INT, total,
                        connections + "all addresses; past it the oldest is closed").between(1, 65_536),
                Setting.property(prefix + ".auth-timeout", SettingType.DURATION, Duration.ofSeconds(10),
                        "a connection to the " + what + " that has not proven the secret this long after it opened "
                                + "is closed, whatever it sent").between(Duration.ofMillis(100), Duration.ofMinutes(10)));
    }

    public List<Setting<?>> all() {
        return List.of(perAddress, total, deadline);
    }

    public UnprovenConnections.Limits defaults() {
        return new UnprovenConnections.Limits(perAddress.defaultValue(), total.defaultValue(), deadline.defaultValue());
    }

    /** The limits the system properties set (the defaults where they set none). */
    public UnprovenConnections.Limits configured() {
        return new UnprovenConnections.Limits(Settings.systemProperty(perAddress), Settings.systemProperty(total),
                Settings.systemProperty(deadline));
    }
}
