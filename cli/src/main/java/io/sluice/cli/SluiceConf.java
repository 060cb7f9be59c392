package io.sluice.cli;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValue;
import io.sluice.common.SluiceException;
import io.sluice.coordinator.QueryConfig;
import io.sluice.coordinator.SchedulerSettings;
import io.sluice.shuffle.ShuffleClient;
import io.sluice.shuffle.ShuffleSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A node's settings from three layers, each overriding the one before: a HOCON file
 * ({@code --config FILE}, else {@code $SLUICE_CONF}; {@code sluice.task.timeout = 30s} or nested
 * blocks), environment variables ({@code SLUICE_} and the name after {@code sluice.} in upper case
 * with dots and dashes as underscores: {@code SLUICE_TASK_TIMEOUT}), then {@code --conf NAME=VALUE}
 * flags. Every name is one of {@link #NAMES} (listed in docs/configuration.md); another
 * {@code sluice.*} name in the file or a flag is an error naming it.
 */
final class SluiceConf {
    /** Settings a worker JVM reads as system properties (shuffle, membership). */
    static final List<String> SYSTEM_PROPERTIES = List.of(ShuffleSettings.COMPRESSION, ShuffleSettings.MAX_IN_FLIGHT_BYTES,
            ShuffleSettings.MAX_REQUESTS_IN_FLIGHT, ShuffleSettings.MAX_BUFFERED_ROWS, ShuffleClient.TIMEOUT_PROPERTY,
            ShuffleClient.CONNECT_TIMEOUT_PROPERTY, "sluice.shuffle.transport", "sluice.cluster.heartbeat-pause");
    static final List<String> NAMES;

    static {
        List<String> names = new ArrayList<>(SchedulerSettings.NAMES);
        names.addAll(QueryConfig.NAMES);
        names.addAll(SYSTEM_PROPERTIES);
        NAMES = List.copyOf(names);
    }

    private final Map<String, String> values;

    private SluiceConf(Map<String, String> values) {
        this.values = values;
    }

    /** {@code file} may be null (then {@code $SLUICE_CONF}, if set, names it). */
    static SluiceConf load(Path file, Map<String, String> environment, Map<String, String> flags) {
        Map<String, String> values = new LinkedHashMap<>();
        Path path = file != null ? file : pathFromEnvironment(environment);
        if (path != null) {
            values.putAll(readFile(path));
        }
        for (String name : NAMES) {
            String env = environment.get(environmentName(name));
            if (env != null && !env.isBlank()) {
                values.put(name, env.strip());
            }
        }
        flags.forEach((name, value) -> values.put(checkName(name, "--conf"), value));
        return new SluiceConf(values);
    }

    /** {@code sluice.task.max-attempts} is {@code SLUICE_TASK_MAX_ATTEMPTS}. */
    static String environmentName(String name) {
        return "SLUICE_" + name.substring("sluice.".length()).toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    private static Path pathFromEnvironment(Map<String, String> environment) {
        String configured = environment.get("SLUICE_CONF");
        return configured == null || configured.isBlank() ? null : Path.of(configured);
    }

    private static Map<String, String> readFile(Path path) {
        if (!Files.isRegularFile(path)) {
            throw new SluiceException("configuration file " + path + " does not exist");
        }
        Config config;
        try {
            config = ConfigFactory.parseFile(path.toFile()).resolve();
        } catch (ConfigException e) {
            throw new SluiceException("configuration file " + path + ": " + e.getMessage());
        }
        Map<String, String> out = new TreeMap<>();
        for (Map.Entry<String, ConfigValue> e : config.entrySet()) {
            out.put(checkName(e.getKey(), path.toString()), String.valueOf(e.getValue().unwrapped()));
        }
        return out;
    }

    private static String checkName(String name, String source) {
        if (!NAMES.contains(name)) {
            throw new SluiceException(source + ": unknown setting '" + name + "'; settings: " + String.join(", ", NAMES));
        }
        return name;
    }

    /** The values of these names that are set, in the order given. */
    Map<String, String> only(List<String> names) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String name : names) {
            if (values.containsKey(name)) {
                out.put(name, values.get(name));
            }
        }
        return out;
    }

    /** Sets the JVM-wide settings as system properties, before a node starts. */
    void applySystemProperties() {
        only(SYSTEM_PROPERTIES).forEach(System::setProperty);
    }

    /** The scheduler settings these values make. */
    SchedulerSettings scheduler() {
        return SchedulerSettings.defaults().with(only(SchedulerSettings.NAMES));
    }

    /** {@code base} with the query settings these values set. */
    QueryConfig queryDefaults(QueryConfig base) {
        QueryConfig out = base;
        for (Map.Entry<String, String> e : only(QueryConfig.NAMES).entrySet()) {
            out = out.with(e.getKey(), e.getValue());
        }
        return out;
    }
}
