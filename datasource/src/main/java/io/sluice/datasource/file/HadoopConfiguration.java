package io.sluice.datasource.file;

import io.sluice.common.SluiceException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The one Hadoop {@link Configuration} through which every file of a node is opened, so that
 * file://, hdfs://, s3a:// and connectors added to the class path are configured in one place, as
 * users configure them for Spark. Layers, each overriding the one before: Hadoop's defaults and the
 * {@code core-site.xml} on the class path; {@link #OBJECT_STORE_DEFAULTS}; {@code core-site.xml} and
 * {@code hdfs-site.xml} of {@code $HADOOP_CONF_DIR}; then every setting {@code sluice.hadoop.K} as the
 * Hadoop key {@code K} ({@code --conf}, the config file and {@code -D} set them as system properties
 * before the node starts). The configuration is built again when those settings change (an embedded
 * cluster started after a test set them), and is otherwise shared.
 *
 * <p>A session's own {@code SET sluice.hadoop.K = V} overlays the node's configuration for what that
 * session runs ({@link #withOverrides}): on the coordinator around planning, listing and commit, on
 * the workers around each scan, whose plan carries the overrides. Each distinct set of overrides gets
 * one configuration and one Hadoop user of its own, so that Hadoop's {@code FileSystem} cache, keyed
 * by scheme, authority and user, keeps one file system per (scheme, authority, overrides) and never
 * hands a session the node's instance; the {@value #OVERLAYS_KEPT} least recently used are kept. An
 * evicted set's file systems are closed once nothing uses them: {@link #withOverrides} holds its set
 * while its work runs, and a stream read after that (a scan's) holds a {@link #lease}, so a query
 * reading through a set's file system never has it closed under it. Keys that widen what a node may
 * open stay node-only ({@link #checkSessionKey}).
 */
public final class HadoopConfiguration {
    /** The settings family of Hadoop keys: {@code sluice.hadoop.K} is the Hadoop key {@code K}. */
    public static final String PREFIX = "sluice.hadoop.";
    /**
     * Defaults for reading Parquet from object stores, under whatever a site file or setting says.
     * S3A's classic input stream reads with random-access ranged GETs (the footer, then the
     * selected column chunks) instead of one sequential GET per file, which would stream the columns
     * a query skips; parquet-hadoop hands a row group's column chunks to it as one vectored read,
     * which S3A issues as several ranged GETs in flight at once. S3A merges two ranges of one read
     * into one GET when less than {@code fs.s3a.vectored.read.min.seek.size} lies between them (its
     * default, 4K, would leave the selected chunks of a row group with a small unselected column
     * between them as separate GETs; a GET's latency costs more than reading a few hundred KB more),
     * up to {@code fs.s3a.vectored.read.max.merged.size} per GET.
     */
    public static final Map<String, String> OBJECT_STORE_DEFAULTS = Map.of(
            "fs.s3a.input.stream.type", "classic",
            "fs.s3a.experimental.input.fadvise", "random",
            "fs.s3a.readahead.range", "1M",
            "fs.s3a.vectored.read.min.seek.size", "512K",
            "fs.s3a.vectored.read.max.merged.size", "8M",
            "parquet.hadoop.vectored.io.enabled", "true");

    static final int OVERLAYS_KEPT = 32;

    private static volatile Built current;
    /** The session overrides (Hadoop keys) in force on this thread, or null for the node's configuration. */
    private static final ThreadLocal<Map<String, String>> OVERRIDES = new ThreadLocal<>();
    private static final Map<Map<String, String>, Overlay> OVERLAYS = new LinkedHashMap<>(16, 0.75f, true);

    /**
     * The node configuration an overlay was made over, the overlaid configuration, its Hadoop user,
     * and how many hold it (guarded by {@link #OVERLAYS}): evicted (retired) and held by none, its
     * file systems are closed.
     */
    private static final class Overlay {
        private final Configuration base;
        private final Configuration conf;
        private final UserGroupInformation user;
        private int holders;
        private boolean retired;

        Overlay(Configuration base, Configuration conf, UserGroupInformation user) {
            this.base = base;
            this.conf = conf;
            this.user = user;
        }
    }

    /** What holds an override set's file systems open until it is closed (once; later closes do nothing). */
    public static final class Lease implements AutoCloseable {
        private static final Lease NONE = new Lease(null);
        private final AtomicReference<Overlay> overlay;

        private Lease(Overlay overlay) {
            this.overlay = new AtomicReference<>(overlay);
        }

        @Override
        public void close() {
            Overlay held = overlay.getAndSet(null);
            if (held != null) {
                release(held);
            }
        }
    }

    private record Built(Map<String, String> settings, String confDir, Configuration conf) {
    }

    private HadoopConfiguration() {
    }

    /**
     * The configuration files are opened with on this thread: the node's, or the node's with the
     * session overrides of {@link #withOverrides} in force. Callers must not modify it.
     */
    public static Configuration shared() {
        Map<String, String> overrides = OVERRIDES.get();
        Configuration node = node();
        if (overrides == null || overrides.isEmpty()) {
            return node;
        }
        synchronized (OVERLAYS) {
            return overlay(overrides, node).conf;
        }
    }

    /** The session overrides in force on this thread (Hadoop keys to values), empty if none. */
    public static Map<String, String> overrides() {
        Map<String, String> overrides = OVERRIDES.get();
        return overrides == null ? Map.of() : overrides;
    }

    /**
     * {@code work}'s result, run with {@code overrides} (Hadoop keys to values) over the node's
     * configuration, as the Hadoop user of that set of overrides; none: the node's configuration.
     */
    public static <T> T withOverrides(Map<String, String> overrides, Supplier<T> work) {
        Map<String, String> previous = OVERRIDES.get();
        if (overrides.isEmpty() && previous == null && actsAsNode()) {
            return work.get();
        }
        OVERRIDES.set(Map.copyOf(overrides));
        try (Lease lease = overrides.isEmpty() ? Lease.NONE : lease()) {
            // a thread started inside another set's doAs inherits its user: the node's work runs as the node's
            Overlay held = lease.overlay.get();
            UserGroupInformation user = held == null ? UserGroupInformation.getLoginUser() : held.user;
            return user.doAs((PrivilegedExceptionAction<T>) work::get);
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e); // doAs declares them; a Supplier throws neither
        } finally {
            if (previous == null) {
                OVERRIDES.remove();
            } else {
                OVERRIDES.set(previous);
            }
        }
    }

    /**
     * {@code work}'s result, run with a source's own overrides ({@code TableSource.hadoop()}: a
     * reader's options) over those in force on this thread, the source's winning; none: as is.
     * Checked as a session's {@code SET} is (a plan from a remote client carries them too).
     */
    public static <T> T withSourceOverrides(Map<String, String> source, Supplier<T> work) {
        if (source.isEmpty()) {
            return work.get();
        }
        source.forEach((key, value) -> {
            checkSessionKey(key);
            checkSessionValue(key, value);
        });
        Map<String, String> merged = new TreeMap<>(overrides());
        merged.putAll(source);
        return withOverrides(merged, work);
    }

    /**
     * Opens the node's local file system once (Hadoop's configuration files, its file system
     * services and the login user), so that a process that reads files soon can pay for it ahead,
     * on a thread of its own.
     */
    public static void loadLocalFileSystem() {
        try {
            FileSystem.getLocal(node());
        } catch (IOException e) {
            throw new SluiceException("cannot open the local file system: " + e.getMessage());
        }
    }

    /**
     * Holds the file systems of the override set in force on this thread open until the lease is
     * closed, even if the set is evicted meanwhile: for what reads through them after {@link
     * #withOverrides} returned (a scan's batch stream). Without overrides, a lease that holds nothing.
     */
    public static Lease lease() {
        Map<String, String> overrides = overrides();
        if (overrides.isEmpty()) {
            return Lease.NONE;
        }
        Configuration node = node();
        synchronized (OVERLAYS) {
            Overlay overlay = overlay(overrides, node);
            overlay.holders++;
            return new Lease(overlay);
        }
    }

    private static void release(Overlay overlay) {
        boolean close;
        synchronized (OVERLAYS) {
            overlay.holders--;
            close = overlay.retired && overlay.holders == 0;
        }
        if (close) {
            closeFileSystems(overlay);
        }
    }

    /** Whether this thread acts as the node's own Hadoop user (not one of an override set, which threads inherit). */
    private static boolean actsAsNode() {
        try {
            return UserGroupInformation.getCurrentUser().equals(UserGroupInformation.getLoginUser());
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Refuses a Hadoop key a session may not set ({@code SET sluice.hadoop.K}), naming it: those
     * that choose which class serves a scheme ({@code *.impl}), the default file system (which
     * scheme-less paths resolve against), security and credential-provider keys (which read the
     * node's local key stores), and local directories ({@code *.dir}, {@code *.dirs}: buffers and
     * temporary files on the node's disks), and keys that name classes for the node to load
     * ({@code *.class}, {@code *.factory}, {@code *.provider}, {@code *.codecs}, {@code *.signers}, ...).
     * They stay the node's, so a session cannot reach what the file access policy keeps from it.
     */
    public static void checkSessionKey(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        if (k.endsWith(".impl") || k.equals("fs.defaultfs") || k.equals("fs.default.name") || k.startsWith("hadoop.security.")
                || k.contains("credential.provider") || k.endsWith(".dir") || k.endsWith(".dirs")
                || k.matches(".*\\.(class|classes|factory|provider|providers|codecs|signers)")) {
            throw new SluiceException(PREFIX + key + " is node-only: it changes which file systems, classes or local files "
                    + "a node uses, so only the node's configuration (--conf, the config file, HADOOP_CONF_DIR) sets it");
        }
    }

    /**
     * Refuses a session's value with a {@code ${...}} reference: Hadoop expands those when a value is
     * read (other keys, system properties, {@code env.X}), which would hand the session the node's own
     * secrets in an error message or a request.
     */
    public static void checkSessionValue(String key, String value) {
        if (value != null && value.contains("${")) {
            throw new SluiceException(PREFIX + key + ": a session's value may not hold a ${...} reference, which Hadoop "
                    + "would expand from the node's configuration or environment");
        }
    }

    /** The overlay of {@code overrides} over {@code node}, made if needed; the caller holds {@link #OVERLAYS}. */
    private static Overlay overlay(Map<String, String> overrides, Configuration node) {
        Overlay overlay = OVERLAYS.get(overrides);
        if (overlay != null && overlay.base == node) {
            return overlay;
        }
        Configuration conf = new Configuration(node);
        overrides.forEach(conf::set);
        UserGroupInformation user;
        try {
            UserGroupInformation current = UserGroupInformation.getCurrentUser();
            user = UserGroupInformation.createRemoteUser(current.getUserName());
            user.addCredentials(current.getCredentials());
        } catch (IOException e) {
            throw new SluiceException("cannot set up Hadoop for the session's settings: " + e.getMessage(), e);
        }
        Overlay made = new Overlay(node, conf, user);
        OVERLAYS.put(Map.copyOf(overrides), made);
        if (overlay != null) {
            retire(overlay);
        }
        var eldest = OVERLAYS.entrySet().iterator();
        while (OVERLAYS.size() > OVERLAYS_KEPT) {
            retire(eldest.next().getValue());
            eldest.remove();
        }
        return made;
    }

    /** Evicts {@code overlay}: its file systems close now if none holds it, else when the last holder lets go. */
    private static void retire(Overlay overlay) {
        overlay.retired = true;
        if (overlay.holders == 0) {
            closeFileSystems(overlay);
        }
    }

    private static void closeFileSystems(Overlay overlay) {
        try {
            FileSystem.closeAllForUGI(overlay.user);
        } catch (IOException ignored) {
            // closing releases connections and threads; a failure leaves nothing to undo
        }
    }

    /** The node's configuration: defaults, site files and the node's {@code sluice.hadoop.*} settings. */
    private static Configuration node() {
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

    /**
     * The {@code sluice.hadoop.*} system properties, by name. Asked at every file open (to notice a
     * changed property), so it walks the properties without copying their names first and allocates
     * nothing when there are none.
     */
    private static Map<String, String> settingsFromSystemProperties() {
        Map<String, String> out = Map.of();
        for (Map.Entry<Object, Object> property : System.getProperties().entrySet()) {
            if (property.getKey() instanceof String name && property.getValue() instanceof String value
                    && name.startsWith(PREFIX) && name.length() > PREFIX.length()) {
                if (out.isEmpty()) {
                    out = new TreeMap<>();
                }
                out.put(name, value);
            }
        }
        return out;
    }
}
