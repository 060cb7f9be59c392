package io.sluice.connect;

import io.sluice.common.SluiceException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A Connect session's {@code spark.conf}: the Spark keys Sluice has a setting for are mapped onto it
 * (and checked as {@code SET} checks it, when a query runs), every other key is stored and echoed as
 * Spark does. Sluice's own {@code sluice.*} settings may be set through it too.
 */
final class SparkConf {
    /** Spark's keys with a Sluice counterpart: the Sluice setting's name. */
    private static final Map<String, String> MAPPED = Map.of(
            "spark.sql.shuffle.partitions", "sluice.shuffle.partitions",
            "spark.sql.autoBroadcastJoinThreshold", "sluice.join.broadcast-threshold");

    /** The values Spark reports for keys never set in the session. */
    private static final Map<String, String> DEFAULTS = Map.of(
            "spark.sql.shuffle.partitions", "200",
            "spark.sql.autoBroadcastJoinThreshold", "10485760",
            "spark.sql.session.timeZone", "UTC",
            "spark.sql.ansi.enabled", "true");

    private final Map<String, String> values = new TreeMap<>();

    synchronized void set(String key, String value) {
        if (!key.startsWith("spark.") && !key.startsWith("sluice.")) {
            throw new SluiceException("cannot set '" + key + "': only spark.* and sluice.* keys are settings");
        }
        if (key.equals("spark.sql.session.timeZone")) {
            try {
                java.time.ZoneId.of(value);
            } catch (java.time.DateTimeException e) {
                throw new SluiceException("spark.sql.session.timeZone: unknown time zone '" + value
                        + "': expected a region such as 'Europe/Paris' or an offset such as '+02:00'");
            }
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

    static boolean isModifiable(String key) {
        return key.startsWith("spark.sql.") || key.startsWith("sluice.");
    }

    /** The session's settings as Sluice setting names and values, for the queries it runs. */
    synchronized Map<String, String> sluiceSettings() {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : values.entrySet()) {
            String mapped = MAPPED.get(e.getKey());
            if (mapped != null) {
                out.put(mapped, mappedValue(e.getKey(), e.getValue()));
            } else if (e.getKey().startsWith("sluice.")) {
                out.put(e.getKey(), e.getValue());
            }
        }
        return out;
    }

    private static String mappedValue(String key, String value) {
        if (key.equals("spark.sql.autoBroadcastJoinThreshold")) {
            String v = value.trim();
            // Spark: -1 turns broadcast joins off; a bare number is bytes
            if (v.startsWith("-")) {
                return "0";
            }
            String lower = v.toLowerCase(java.util.Locale.ROOT);
            // Spark's 10MB is Sluice's 10m
            return lower.length() > 2 && lower.endsWith("b") && Character.isLetter(lower.charAt(lower.length() - 2))
                    ? lower.substring(0, lower.length() - 1) : lower;
        }
        return value;
    }
}
