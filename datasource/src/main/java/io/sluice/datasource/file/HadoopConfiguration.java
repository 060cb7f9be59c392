package io.sluice.datasource.file;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;

/**
 * The one Hadoop {@link Configuration} through which every file of a node is opened, so that
 * file://, hdfs://, s3a:// and connectors added to the class path are configured in one place, as
 * users configure them for Spark. Layers, each overriding the one before: Hadoop's defaults and the
 * {@code core-site.xml} on the class path; {@link #OBJECT_STORE_DEFAULTS}; {@code core-site.xml} and
 * {@code hdfs-site.xml} of {@code $HADOOP_CONF_DIR}; then every setting {@code sluice.hadoop.K} as the
 * Hadoop key {@code K} ({@code --conf}, the config file and {@code -D} set them as system properties
 * before the node starts). The configuration is built again when those settings change (an embedded
 * cluster started after a test set them), and is otherwise shared.
 */
public final class HadoopConfiguration {
    /** The settings family of Hadoop keys: {@code sluice.hadoop.K} is the Hadoop key {@code K}. */
    public static final String PREFIX = "sluice.hadoop.";
    /**
     * Defaults for reading Parquet from object stores, under whatever a site file or setting says.
     * S3A's classic input stream reads with random-access ranged GETs (the footer, then the
     * selected column chunks) instead of one sequential GET per file, which would stream the columns
     * a query skips; parquet-hadoop hands a row group's column chunks to it as one vectored read,
     * which S3A issues as several ranged GETs in flight at once ({@code fs.s3a.vectored.*}).
     */
    public static final Map<String, String> OBJECT_STORE_DEFAULTS = Map.of(
            "fs.s3a.input.stream.type", "classic",
            "fs.s3a.experimental.input.fadvise", "random",
            "fs.s3a.readahead.range", "1M",
            "parquet.hadoop.vectored.io.enabled", "true");

    private static volatile Built current;

    private record Built(Map<String, String> settings, String confDir, Configuration conf) {
    }

    private HadoopConfiguration() {
    }

    /** The shared configuration. Callers must not modify it. */
    public static Configuration shared() {
        Map<String, String> settings = settingsFromSystemProperties();
        String confDir = System.getenv("HADOOP_CONF_DIR");
        Built built = current;
        if (built == null || !built.settings().equals(settings) || !Objects.equals(built.confDir(), confDir)) {
            synchronized (HadoopConfiguration.class) {
                built = current;
                if (built == null || !built.settings().equals(settings) || !Objects.equals(built.confDir(), confDir)) {
                    built = new Built(settings, confDir, build(settings, confDir));
                    current = built;
                }
            }
        }
        return built.conf();
    }

    /** A configuration from the layers above, given the {@code sluice.hadoop.*} settings and a conf directory (or null). */
    public static Configuration build(Map<String, String> settings, String confDir) {
        Configuration conf = new Configuration();
        if (confDir != null && !confDir.isBlank()) {
            for (String site : new String[] {"core-site.xml", "hdfs-site.xml"}) {
                Path file = Path.of(confDir, site);
                if (Files.isRegularFile(file)) {
                    conf.addResource(new org.apache.hadoop.fs.Path(file.toUri()));
                }
            }
        }
        OBJECT_STORE_DEFAULTS.forEach((key, value) -> {
            String[] sources = conf.getPropertySources(key);
            if (sources == null || Arrays.stream(sources).allMatch(source -> source.endsWith("-default.xml"))) {
                conf.set(key, value); // only over Hadoop's own default, never over a site file
            }
        });
        settings.forEach((name, value) -> conf.set(name.substring(PREFIX.length()), value));
        return conf;
    }

    /** The {@code sluice.hadoop.*} system properties, by name. */
    private static Map<String, String> settingsFromSystemProperties() {
        Map<String, String> out = new TreeMap<>();
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith(PREFIX) && name.length() > PREFIX.length()) {
                out.put(name, System.getProperty(name));
            }
        }
        return out;
    }
}
