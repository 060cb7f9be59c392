package io.sluice.common.settings;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Spark's configuration keys that have a Sluice meaning, and the Sluice setting each one sets: the
 * one mapping that {@code SET spark.sql.…} in SQL and the Spark Connect endpoint's {@code conf} share.
 * Spark's keys are matched case-insensitively (Spark's are camel case); their values are checked
 * and translated as Spark reads them. Any other {@code spark.*} key is kept as given, as a member of
 * the {@link #FAMILY} setting family ({@link #storedName}), so that it is echoed back as Spark does;
 * it means nothing to Sluice.
 */
public final class SparkConfigKeys {
    /** The setting family that keeps any other {@code spark.*} key: {@code spark.a.b} is {@code sluice.spark.a.b}. */
    public static final String FAMILY = "sluice.spark.";
    private static final String SPARK = "spark.";

    public static final String SHUFFLE_PARTITIONS = "spark.sql.shuffle.partitions";
    public static final String BROADCAST_THRESHOLD = "spark.sql.autoBroadcastJoinThreshold";
    public static final String SESSION_TIME_ZONE = "spark.sql.session.timeZone";
    public static final String ANSI_ENABLED = "spark.sql.ansi.enabled";

    /** Sluice's names of the settings the keys above set (declared by their modules). */
    public static final String SLUICE_SHUFFLE_PARTITIONS = "sluice.shuffle.partitions";
    public static final String SLUICE_BROADCAST_THRESHOLD = "sluice.join.broadcast-threshold";
    public static final String SLUICE_SESSION_TIME_ZONE = "sluice.sql.session-time-zone";
    public static final String SLUICE_ANSI_ENABLED = "sluice.sql.ansi-enabled";

    private static final Map<String, String> SLUICE_NAMES = Map.of(
            SHUFFLE_PARTITIONS.toLowerCase(Locale.ROOT), SLUICE_SHUFFLE_PARTITIONS,
            BROADCAST_THRESHOLD.toLowerCase(Locale.ROOT), SLUICE_BROADCAST_THRESHOLD,
            SESSION_TIME_ZONE.toLowerCase(Locale.ROOT), SLUICE_SESSION_TIME_ZONE,
            ANSI_ENABLED.toLowerCase(Locale.ROOT), SLUICE_ANSI_ENABLED);

    private SparkConfigKeys() {
    }

    /** A Sluice setting and the value a Spark key and value give it. */
    public record Mapped(String name, String value) {
        public Mapped {
            requireNonNull(name, "name is null");
            requireNonNull(value, "value is null");
        }
    }

    /** Whether {@code key} is a Spark key ({@code spark.…}, any case). */
    public static boolean isSparkKey(String key) {
        return key.regionMatches(true, 0, SPARK, 0, SPARK.length()) && key.length() > SPARK.length();
    }

    /** The name of the {@link #FAMILY} member that keeps Spark key {@code key} (its case kept). */
    public static String storedName(String key) {
        if (!isSparkKey(key)) {
            throw new IllegalArgumentException("not a Spark key: " + key);
        }
        return FAMILY + key.substring(SPARK.length());
    }

    /** The Spark key a {@link #FAMILY} member keeps, if {@code name} is one. */
    public static Optional<String> keptKey(String name) {
        return name.startsWith(FAMILY) && name.length() > FAMILY.length()
                ? Optional.of(SPARK + name.substring(FAMILY.length())) : Optional.empty();
    }

    /**
     * The Sluice setting {@code key = value} sets, if the key has a Sluice meaning; a value Spark
     * would refuse is an error naming the key.
     */
    public static Optional<Mapped> translate(String key, String value) {
        String sluiceName = sluiceName(key).orElse(null);
        if (sluiceName == null) {
            return Optional.empty();
        }
        String v = value.strip();
        return Optional.of(new Mapped(sluiceName, switch (sluiceName) {
            case SLUICE_SHUFFLE_PARTITIONS -> positive(key, v);
            // Spark spells sizes 10485760, 10m, 10mb or 10MB, and -1 for never
            case SLUICE_BROADCAST_THRESHOLD -> v.toLowerCase(Locale.ROOT);
            case SLUICE_SESSION_TIME_ZONE -> zone(key, v);
            case SLUICE_ANSI_ENABLED -> bool(key, v);
            default -> throw new IllegalStateException(sluiceName);
        }));
    }

    /** The Sluice setting Spark key {@code key} sets, if it has a Sluice meaning. */
    public static Optional<String> sluiceName(String key) {
        return Optional.ofNullable(SLUICE_NAMES.get(key.toLowerCase(Locale.ROOT)));
    }

    /** The Spark key (in Spark's spelling) that sets {@code sluiceName}, if any. */
    public static Optional<String> sparkKeyOf(String sluiceName) {
        for (String spark : new String[] {SHUFFLE_PARTITIONS, BROADCAST_THRESHOLD, SESSION_TIME_ZONE, ANSI_ENABLED}) {
            if (SLUICE_NAMES.get(spark.toLowerCase(Locale.ROOT)).equals(sluiceName)) {
                return Optional.of(spark);
            }
        }
        return Optional.empty();
    }

    private static String positive(String key, String value) {
        try {
            if (Integer.parseInt(value) > 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new SluiceException("invalid value '" + value + "' for " + key + ": a whole number above 0");
    }

    private static String zone(String key, String value) {
        try {
            return ZoneId.of(value).getId();
        } catch (DateTimeException e) {
            throw new SluiceException("invalid value '" + value + "' for " + key
                    + ": a region-based zone ID such as America/Los_Angeles, or an offset such as +08:00");
        }
    }

    private static String bool(String key, String value) {
        if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
            return value.toLowerCase(Locale.ROOT);
        }
        throw new SluiceException("invalid value '" + value + "' for " + key + ": true or false");
    }
}
