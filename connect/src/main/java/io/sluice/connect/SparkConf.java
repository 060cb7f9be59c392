package io.sluice.connect;

import io.sluice.common.SluiceException;
import io.sluice.common.settings.SparkConfigKeys;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A Connect session's {@code spark.conf}: the Spark keys Sluice has a setting for are mapped onto it
 * through {@link SparkConfigKeys} (the mapping {@code SET spark.…} in SQL uses too; a value Spark
 * would refuse is refused when set), every other {@code spark.*} key is stored and echoed as Spark
 * does. Sluice's own {@code sluice.*} settings may be set through it too (checked when a query runs).
 */
final class SparkConf {
    /** Plans larger than this are sent compressed; -1, Sluice's answer, means never. */
    static final String PLAN_COMPRESSION_THRESHOLD = "spark.connect.session.planCompression.threshold";

    /**
     * The values Spark reports for keys never set in the session, among them those Spark's client
     * reads: it is told to send any local relation inline (Sluice keeps no cached relations or
     * artifacts). Plan compression is reported off as Spark spells it (threshold -1): left unset,
     * Spark 4.2's client printed a NoSuchElementException on every session.
     */
    private static final Map<String, String> DEFAULTS = Map.ofEntries(
            Map.entry(SparkConfigKeys.SHUFFLE_PARTITIONS, "200"),
            Map.entry(SparkConfigKeys.BROADCAST_THRESHOLD, "10485760"),
            Map.entry(SparkConfigKeys.SESSION_TIME_ZONE, "UTC"),
            Map.entry(SparkConfigKeys.ANSI_ENABLED, "true"),
            Map.entry("spark.sql.caseSensitive", "false"),
            Map.entry("spark.sql.legacy.timeParserPolicy", "EXCEPTION"),
            Map.entry("spark.sql.execution.arrow.useLargeVarTypes", "false"),
            Map.entry("spark.sql.session.localRelationCacheThreshold", String.valueOf(Integer.MAX_VALUE)),
            Map.entry("spark.sql.session.localRelationSizeLimit", String.valueOf(ConnectServer.MAX_MESSAGE_BYTES)),
            Map.entry("spark.sql.session.localRelationChunkSizeRows", "10000"),
            Map.entry("spark.sql.session.localRelationChunkSizeBytes", String.valueOf(16 << 20)),
            Map.entry("spark.sql.session.localRelationBatchOfChunksSizeBytes", String.valueOf(ConnectServer.MAX_MESSAGE_BYTES)),
            Map.entry("spark.sql.artifact.isolation.enabled", "false"),
            Map.entry(PLAN_COMPRESSION_THRESHOLD, "-1"),
            Map.entry("spark.connect.session.planCompression.defaultAlgorithm", "ZSTD"));

    private final Map<String, String> values = new TreeMap<>();

    synchronized void set(String key, String value) {
        if (SparkConfigKeys.isSparkKey(key)) {
            SparkConfigKeys.translate(key, value);
        } else if (!key.startsWith("sluice.")) {
            throw new SluiceException("cannot set '" + key + "': only spark.* and sluice.* keys are settings");
        }
        values.put(key, value);
    }

    synchronized void unset(String key) {
        values.remove(key);
    }

    /** The value set, else Spark's default for the key, else null. */
    synchronized String get(String key) {
        String v = values.get(key);
        return v != null ? v : DEFAULTS.get(key);
    }

    synchronized Map<String, String> all() {
        Map<String, String> out = new TreeMap<>(DEFAULTS);
        out.putAll(values);
        return out;
    }

    /** The session time zone (Spark's {@code spark.sql.session.timeZone}), which time functions read. */
    String timeZone() {
        return get(SparkConfigKeys.SESSION_TIME_ZONE);
    }

    static boolean isModifiable(String key) {
        return key.startsWith("spark.sql.") || key.startsWith("sluice.");
    }

    /** The session's settings as Sluice setting names and values, for the queries it runs. */
    synchronized Map<String, String> sluiceSettings() {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : values.entrySet()) {
            if (SparkConfigKeys.isSparkKey(e.getKey())) {
                SparkConfigKeys.translate(e.getKey(), e.getValue()).ifPresent(m -> out.put(m.name(), m.value()));
            } else {
                out.put(e.getKey(), e.getValue());
            }
        }
        return out;
    }
}
