package io.sluice.coordinator;

import static io.sluice.coordinator.CoordinatorSettingsDeclaration.BROADCAST_THRESHOLD;
import static io.sluice.coordinator.CoordinatorSettingsDeclaration.JOIN_REORDER;
import static io.sluice.coordinator.CoordinatorSettingsDeclaration.JOIN_REORDER_DP_LIMIT;
import static io.sluice.coordinator.CoordinatorSettingsDeclaration.OPTIMIZER_ENABLED;
import static io.sluice.coordinator.CoordinatorSettingsDeclaration.OPTIMIZER_MAX_PASSES;
import static io.sluice.coordinator.CoordinatorSettingsDeclaration.OPTIMIZER_TIMEOUT;
import static io.sluice.coordinator.CoordinatorSettingsDeclaration.RANGE_PARTITIONED_SORT;
import static io.sluice.coordinator.CoordinatorSettingsDeclaration.RANGE_SORT_MIN_ROWS;
import static io.sluice.coordinator.CoordinatorSettingsDeclaration.RESULT_BUFFER_BYTES;
import static io.sluice.coordinator.CoordinatorSettingsDeclaration.RESULT_MAX_BYTES;
import static io.sluice.coordinator.CoordinatorSettingsDeclaration.RUNTIME_FILTER_THRESHOLD;
import static io.sluice.coordinator.CoordinatorSettingsDeclaration.SHUFFLE_PARTITIONS;
import static io.sluice.coordinator.CoordinatorSettingsDeclaration.SKIP_FAILED_RULES;
import static io.sluice.coordinator.CoordinatorSettingsDeclaration.SORT_MERGE_THRESHOLD;
import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.settings.Redaction;
import io.sluice.common.settings.Scope;
import io.sluice.common.settings.Setting;
import io.sluice.common.settings.Settings;
import io.sluice.common.settings.SparkConfigKeys;
import io.sluice.datasource.file.HadoopConfiguration;
import io.sluice.physical.rules.JoinSelection;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * Settings one query runs with: a typed view of the session settings of
 * {@link CoordinatorSettingsDeclaration}, where their names, defaults, bounds and docs are
 * declared. {@code SET name = value} in a script changes them for the statements after it.
 */
public final class QueryConfig {
    private final Settings settings;

    private QueryConfig(Settings settings) {
        this.settings = requireNonNull(settings, "settings is null");
    }

    public static QueryConfig defaults() {
        return new QueryConfig(Settings.defaults());
    }

    /**
     * This config with one session setting changed; an unknown name, a node setting or a bad value
     * is a user error naming it.
     */
    public QueryConfig with(String name, String value) {
        if (SparkConfigKeys.isSparkKey(name)) {
            // a Spark key with a Sluice meaning sets that setting; every one is kept as given, to be echoed
            QueryConfig mapped = SparkConfigKeys.translate(name, value).map(m -> with(m.name(), m.value())).orElse(this);
            return new QueryConfig(mapped.settings.with(SparkConfigKeys.storedName(name), value));
        }
        if (name.startsWith(HadoopConfiguration.PREFIX) && name.length() > HadoopConfiguration.PREFIX.length()) {
            String key = name.substring(HadoopConfiguration.PREFIX.length());
            HadoopConfiguration.checkSessionKey(key);
            HadoopConfiguration.checkSessionValue(key, value);
            return new QueryConfig(settings.with(name, value)); // over the node's Hadoop configuration, for this session
        }
        Setting<?> setting = settings.registry().setting(name);
        if (setting.scope() != Scope.SESSION) {
            throw new SluiceException(name + " is a node setting, fixed when the node starts; SET changes only "
                    + "session settings (docs/configuration.md)");
        }
        return new QueryConfig(settings.with(name, value));
    }

    /**
     * What Spark's {@code SET key} answers for Spark key {@code key}: the value it was set to, else the
     * value of the Sluice setting it maps to, else {@code <undefined>}.
     */
    public String sparkValue(String key) {
        String stored = settings.explicit().get(SparkConfigKeys.storedName(key));
        if (stored != null) {
            return stored;
        }
        return SparkConfigKeys.sluiceName(key).map(n -> formatted(settings.registry().setting(n))).orElse("<undefined>");
    }

    private <T> String formatted(Setting<T> setting) {
        return setting.type().format(settings.get(setting));
    }

    /** The session settings changed from their defaults. */
    public Settings settings() {
        return settings;
    }

    /**
     * The session's Hadoop overrides, {@code SET sluice.hadoop.K = V} as Hadoop key {@code K} to
     * {@code V}: its queries open files with them over the node's configuration
     * ({@link HadoopConfiguration#withOverrides}).
     */
    public Map<String, String> hadoopOverrides() {
        Map<String, String> out = new TreeMap<>();
        settings.explicit().forEach((name, value) -> {
            if (name.startsWith(HadoopConfiguration.PREFIX)) {
                out.put(name.substring(HadoopConfiguration.PREFIX.length()), value);
            }
        });
        return out;
    }

    public boolean optimizerEnabled() {
        return settings.get(OPTIMIZER_ENABLED);
    }

    public int maxOptimizerPasses() {
        return settings.get(OPTIMIZER_MAX_PASSES);
    }

    public Duration optimizerTimeout() {
        return settings.get(OPTIMIZER_TIMEOUT);
    }

    public boolean skipFailedRules() {
        return settings.get(SKIP_FAILED_RULES);
    }

    public int shufflePartitions() {
        return settings.get(SHUFFLE_PARTITIONS);
    }

    public long broadcastThreshold() {
        return settings.get(BROADCAST_THRESHOLD);
    }

    public long sortMergeThreshold() {
        return settings.get(SORT_MERGE_THRESHOLD);
    }

    public long runtimeFilterThreshold() {
        return settings.get(RUNTIME_FILTER_THRESHOLD);
    }

    public boolean joinReorder() {
        return settings.get(JOIN_REORDER);
    }

    public int joinReorderDpLimit() {
        return settings.get(JOIN_REORDER_DP_LIMIT);
    }

    public boolean rangePartitionedSort() {
        return settings.get(RANGE_PARTITIONED_SORT);
    }

    public long rangeSortMinRows() {
        return settings.get(RANGE_SORT_MIN_ROWS);
    }

    public long resultMaxBytes() {
        return settings.get(RESULT_MAX_BYTES);
    }

    public long resultBufferBytes() {
        return settings.get(RESULT_BUFFER_BYTES);
    }

    public JoinSelection joinSelection() {
        return new JoinSelection(broadcastThreshold(), sortMergeThreshold(), runtimeFilterThreshold());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof QueryConfig other && settings.equals(other.settings);
    }

    @Override
    public int hashCode() {
        return settings.hashCode();
    }

    @Override
    public String toString() {
        return "QueryConfig" + Redaction.values(settings.explicit());
    }
}
