package io.sluice.cli;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import io.sluice.api.LocalCluster;
import io.sluice.common.SluiceException;
import io.sluice.common.settings.Scope;
import io.sluice.common.settings.Setting;
import io.sluice.common.settings.Settings;
import io.sluice.common.settings.SettingsRegistry;
import io.sluice.coordinator.CoordinatorSettingsDeclaration;
import io.sluice.coordinator.QueryConfig;
import io.sluice.coordinator.SchedulerSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * A node's settings from three layers, each overriding the one before: a HOCON file
 * ({@code --config FILE}, else {@code $SLUICE_CONF}; {@code sluice.task.timeout = 30s} or nested
 * blocks), environment variables ({@link Setting#environmentName()}: {@code SLUICE_TASK_TIMEOUT}),
 * then {@code --conf NAME=VALUE} flags. Every name must be declared in the
 * {@link SettingsRegistry} (docs/configuration.md lists them); another name in the file or a flag,
 * or a value its declaration refuses, is an error naming where it came from.
 */
final class SluiceConf {
    private final Settings settings;

    private SluiceConf(Settings settings) {
        this.settings = settings;
    }

    /** {@code file} may be null (then {@code $SLUICE_CONF}, if set, names it). */
    static SluiceConf load(Path file, Map<String, String> environment, Map<String, String> flags) {
        Settings settings = Settings.defaults();
        Path path = file != null ? file : pathFromEnvironment(environment);
        if (path != null) {
            settings = apply(settings, readFile(path), path.toString());
        }
        for (Setting<?> setting : settings.registry().all()) {
            if (setting.scope() == Scope.PROPERTY || setting.isFamily()) {
                continue; // -D only (SLUICE_AUTH_SECRET, for one, is the secret itself, not a setting); families by name
            }
            String env = environment.get(setting.environmentName());
            if (env != null && !env.isBlank()) {
                settings = apply(settings, Map.of(setting.name(), env), setting.environmentName());
            }
        }
        return new SluiceConf(apply(settings, flags, "--conf"));
    }

    private static Settings apply(Settings settings, Map<String, String> values, String source) {
        for (String name : values.keySet()) {
            if (settings.registry().contains(name) && settings.registry().setting(name).scope() == Scope.PROPERTY) {
                throw new SluiceException(source + ": " + name + " is read only as a -D property: authentication is "
                        + "turned off with --insecure, and the secret comes from SLUICE_AUTH_SECRET or "
                        + "-Dsluice.auth.secret-file (docs/security.md)");
            }
        }
        try {
            return settings.withAll(values);
        } catch (SluiceException e) {
            throw new SluiceException(source + ": " + e.getMessage());
        }
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
            // a quoted key ("fs.s3a.endpoint") is one path element: Hadoop keys that are prefixes of
            // others (fs.s3a.endpoint, fs.s3a.endpoint.region) cannot both be nested objects
            out.put(String.join(".", ConfigUtil.splitPath(e.getKey())), String.valueOf(e.getValue().unwrapped()));
        }
        return out;
    }

    /** The resolved settings. */
    Settings settings() {
        return settings;
    }

    /**
     * Sets the node settings given here as system properties, before a node starts: the node's
     * parts that start later (shuffle, membership, file access) read them there.
     */
    void applySystemProperties() {
        for (Map.Entry<String, String> e : settings.explicit().entrySet()) {
            if (settings.registry().setting(e.getKey()).scope() == Scope.NODE) {
                System.setProperty(e.getKey(), e.getValue());
            }
        }
    }

    /** The scheduler settings these values make. */
    SchedulerSettings scheduler() {
        return SchedulerSettings.from(settings);
    }

    /** The job deadline ({@code sluice.job.timeout}). */
    Duration jobTimeout() {
        return settings.get(CoordinatorSettingsDeclaration.JOB_TIMEOUT);
    }

    /**
     * {@code base} with every limit these values set: the scheduler's, the job deadline and the
     * session defaults (node settings reach the nodes as system properties: {@link #applySystemProperties}).
     */
    LocalCluster.Options localCluster(LocalCluster.Options base) {
        return base.withScheduler(scheduler()).withJobTimeout(jobTimeout())
                .withQueryDefaults(queryDefaults(base.queryDefaults()));
    }

    /** {@code base} with the session settings these values set. */
    QueryConfig queryDefaults(QueryConfig base) {
        QueryConfig out = base;
        for (Map.Entry<String, String> e : settings.explicit().entrySet()) {
            if (settings.registry().setting(e.getKey()).scope() == Scope.SESSION) {
                out = out.with(e.getKey(), e.getValue());
            }
        }
        return out;
    }
}
