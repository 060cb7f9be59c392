package io.sluice.datasource.file;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageStatistics;

/**
 * The object-store requests this JVM has made so far, from Hadoop's global storage statistics of
 * S3A: a benchmark takes one snapshot before a query and one after, and the difference says how many
 * GETs, HEADs and LISTs the query cost and so where its time on an object store goes.
 */
public final class StoreRequests {
    /** S3A's counters of requests, and the short names they are reported under. */
    private static final Map<String, String> COUNTERS = Map.of(
            "action_http_get_request", "GET",
            "action_http_head_request", "HEAD",
            "object_list_request", "LIST",
            "object_continue_list_request", "LIST",
            "object_put_request", "PUT",
            "object_delete_request", "DELETE");

    private StoreRequests() {
    }

    /** Requests made so far, by kind ({@code GET}, {@code HEAD}, {@code LIST}, ...), summed over every S3A file system. */
    public static Map<String, Long> snapshot() {
        Map<String, Long> out = new TreeMap<>();
        Iterator<StorageStatistics> all = FileSystem.getGlobalStorageStatistics().iterator();
        while (all.hasNext()) {
            StorageStatistics statistics = all.next();
            if (!statistics.getName().toLowerCase(Locale.ROOT).contains("s3a")) {
                continue;
            }
            COUNTERS.forEach((counter, kind) -> {
                Long value = statistics.getLong(counter);
                if (value != null && value > 0) {
                    out.merge(kind, value, Long::sum);
                }
            });
        }
        return out;
    }

    /**
     * Requests made so far by the one file system that {@code location} opens on this node under a
     * session's Hadoop {@code overrides} (the instance that session's scans share). Hadoop's global
     * registry keeps the statistics of the first S3A file system registered under a name, so
     * {@link #snapshot()} can miss a later instance's requests; this counts exactly one instance.
     */
    public static Map<String, Long> of(String location, Map<String, String> overrides) {
        FileSystem fs = HadoopConfiguration.withOverrides(overrides, () -> {
            try {
                return new Path(location).getFileSystem(HadoopConfiguration.shared());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        Map<String, Long> out = new TreeMap<>();
        StorageStatistics statistics = fs.getStorageStatistics();
        COUNTERS.forEach((counter, kind) -> {
            Long value = statistics.getLong(counter);
            if (value != null && value > 0) {
                out.merge(kind, value, Long::sum);
            }
        });
        return out;
    }

    /** {@code after - before}, by kind, the kinds with none left out. */
    public static Map<String, Long> since(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> out = new TreeMap<>();
        after.forEach((kind, n) -> {
            long d = n - before.getOrDefault(kind, 0L);
            if (d > 0) {
                out.put(kind, d);
            }
        });
        return out;
    }
}
