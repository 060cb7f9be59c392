package io.sluice.datasource.file;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.functional.FutureIO;

/**
 * Resolves a table location to its data files through Hadoop's {@code FileSystem}, as Spark does.
 * A location is one path or several separated by commas (a comma inside a path is written
 * {@code \,}); each path is a file, a directory (listed recursively) or a glob ({@code
 * /data/2024-*}{@code /part-*.parquet}, whose matches are listed the same way). Names starting with
 * {@code .} or {@code _} ({@code _SUCCESS}, {@code _committed_*}, {@code _temporary}, ...) are skipped,
 * files and directories alike, except {@code _key=value} partition directories; so are {@code .crc}
 * checksums. Directories named {@code key=value} below a listed directory (or below a glob's fixed
 * prefix) give their files partition values. Directories of one level are listed in parallel on a
 * bounded pool shared by the node, and an S3A directory with one flat listing of its prefix
 * ({@link PathListing}), so thousands of files list quickly on object stores and local disks alike.
 * One query's planning lists each location once ({@link #planning}). A listing of {@value #CACHED_LISTING_FILES} files or more is reused for
 * {@value #LISTING_REUSE_SECONDS} seconds (so planning one query, whose statistics and scan both need
 * it, lists a large dataset once), and forgotten at once when this node commits a write
 * ({@link #forgetListings}); files other writers add show from the next listing on.
 */
public final class SourceFiles {
    /** Threads listing directories (and reading footers, {@link #inParallel}) for all queries of a node. */
    static final int LISTING_THREADS = 16;
    static final int CACHED_LISTING_FILES = 256;
    static final int LISTING_REUSE_SECONDS = 5;
    private static final int CACHED_LISTINGS = 32;
    /**
     * Recent large listings by location and the session's Hadoop overrides (another session's
     * credentials may not see them), least recently used dropped first.
     */
    private static final Map<ListingKey, Listed> LISTINGS = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ListingKey, Listed> eldest) {
            return size() > CACHED_LISTINGS;
        }
    };
    /** Counts {@link #forgetListings} calls (guarded by LISTINGS): a listing begun before one is not reused. */
    private static long listingGeneration;
    /** The guard of the query this thread plans, if any ({@link #guarded}). */
    private static final ThreadLocal<FileGuard> GUARD = new ThreadLocal<>();
    /**
     * The listings of the query being planned on this thread ({@link #planning}), by location and
     * Hadoop overrides: two scans of one path with their own overrides may see different stores.
     */
    private static final ThreadLocal<Map<ListingKey, FileListing>> PLANNING = new ThreadLocal<>();
    private static final ExecutorService POOL = Executors.newFixedThreadPool(LISTING_THREADS, r -> {
        Thread t = new Thread(r, "sluice-file-listing");
        t.setDaemon(true);
        return t;
    });

    private SourceFiles() {
    }

    /**
     * The data files at {@code location} with their partition values, in path order. A missing path
     * or a glob matching nothing is a {@link SluiceException} naming it; an empty directory yields no
     * files; files whose {@code key=value} directories name different keys are an error naming two of them.
     * A directory whose {@code _SUCCESS} is a {@link CommitManifest} (an object-store commit) shows only
     * the files it names.
     */
    public static FileListing listing(String location) {
        requireNonNull(location, "location is null");
        if (location.isBlank()) {
            throw new SluiceException("file location is empty");
        }
        Map<ListingKey, FileListing> planning = PLANNING.get();
        ListingKey key = new ListingKey(location, HadoopConfiguration.overrides());
        if (planning != null) {
            FileListing listed = planning.get(key);
            if (listed == null) {
                listed = reusedOrListed(key);
                planning.put(key, listed);
            }
            return listed;
        }
        return reusedOrListed(key);
    }

    /**
     * {@code work}'s result, with every location it lists listed once: one query's planning needs a
     * table's files for its schema check, statistics and scan, and on an object store each listing
     * is requests. Nested calls share the outer one's listings.
     */
    public static <T> T planning(Supplier<T> work) {
        if (PLANNING.get() != null) {
            return work.get();
        }
        PLANNING.set(new HashMap<>());
        try {
            return work.get();
        } finally {
            PLANNING.remove();
        }
    }

    private static FileListing reusedOrListed(ListingKey key) {
        String location = key.location();
        long now = System.nanoTime();
        long generation;
        synchronized (LISTINGS) {
            Listed recent = LISTINGS.get(key);
            if (recent != null && now - recent.listedAt() < TimeUnit.SECONDS.toNanos(LISTING_REUSE_SECONDS)) {
                return checked(location, recent.listing());
            }
            generation = listingGeneration;
        }
        FileListing listing = checked(location, listNow(location));
        if (listing.files().size() >= CACHED_LISTING_FILES) {
            synchronized (LISTINGS) {
                if (generation == listingGeneration) { // a commit while we listed may have made it stale: not kept
                    LISTINGS.put(key, new Listed(listing, now));
                }
            }
        }
        return listing;
    }

    /**
     * Runs {@code work} with every listing it makes on this thread checked by {@code guard} before
     * it is returned, so before any listed file is opened (a footer read while planning included).
     */
    public static <T> T guarded(FileGuard guard, java.util.function.Supplier<T> work) {
        requireNonNull(guard, "guard is null");
        FileGuard outer = GUARD.get();
        GUARD.set(guard);
        try {
            return work.get();
        } finally {
            GUARD.set(outer);
        }
    }

    private static FileListing checked(String location, FileListing listing) {
        FileGuard guard = GUARD.get();
        if (guard != null) {
            guard.checkFiles(location, listing.files());
        }
        return listing;
    }

    /** Drops every reused listing: this node just changed files (a committed write). */
    public static void forgetListings() {
        synchronized (LISTINGS) {
            listingGeneration++;
            LISTINGS.clear();
        }
    }

    private record Listed(FileListing listing, long listedAt) {
    }

    private record ListingKey(String location, Map<String, String> hadoop) {
    }

    private static FileListing listNow(String location) {
        List<SourceFile> files = new ArrayList<>();
        List<String> keys = null;
        String keysFrom = null;
        for (String one : paths(location)) {
            for (PathListing.Found found : PathListing.list(one)) {
                List<String[]> pairs = partitionPairs(found.root(), found.status().getPath());
                List<String> fileKeys = pairs.stream().map(p -> p[0]).toList();
                String path = found.status().getPath().toString();
                if (keys == null) {
                    keys = fileKeys;
                    keysFrom = path;
                } else if (!sameKeys(keys, fileKeys)) {
                    throw new SluiceException("inconsistent partition directories at " + location + ": " + keysFrom
                            + " is in partition directories " + keys + " but " + path + " in " + fileKeys);
                }
                files.add(new SourceFile(path, found.status().getLen(), found.status().getModificationTime(),
                        pairs.stream().map(p -> p[1]).toList()));
            }
        }
        files.sort(Comparator.comparing(SourceFile::path));
        return new FileListing(files, keys == null ? List.of() : keys);
    }

    /** The data files at {@code location} (see {@link #listing}), in path order, fully qualified. */
    public static List<Path> list(String location) {
        return listing(location).paths();
    }

    /** Total size in bytes of the files at {@code location}. */
    public static long totalBytes(String location) {
        return listing(location).totalBytes();
    }

    /** A string that changes when the files at {@code location} change: each file's path, length and modification time. */
    public static String fingerprint(String location) {
        return listing(location).fingerprint(location);
    }

    /** The first data file at {@code location}; no data file there is a user error. */
    public static Path first(String location) {
        return new Path(firstFile(location).path());
    }

    /** The first data file at {@code location} as listing found it; no data file there is a user error. */
    public static SourceFile firstFile(String location) {
        List<SourceFile> files = listing(location).files();
        if (files.isEmpty()) {
            throw new SluiceException("no data files in directory " + location);
        }
        return files.get(0);
    }

    /** The {@code FileSystem} of a path, with I/O failures as {@link SluiceException}s naming it. */
    public static FileSystem fileSystem(Path path) {
        try {
            return path.getFileSystem(HadoopConfiguration.shared());
        } catch (IOException e) {
            throw new SluiceException("cannot access " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * Opens {@code path} for reading. Given its length and modification time as listing found them
     * ({@code length >= 0}), the file system is not asked for them again: on S3A, no HEAD request.
     */
    public static FSDataInputStream open(Path path, long length, long modificationTime) throws IOException {
        FileSystem fs = fileSystem(path);
        if (length < 0) {
            return fs.open(path);
        }
        FileStatus status = new FileStatus(length, false, 1, 0, modificationTime, path);
        return FutureIO.awaitFuture(fs.openFile(path).withFileStatus(status).build());
    }

    /**
     * {@code work} applied to each item on the listing pool (in the caller's thread when there is
     * one item), results in item order; the first failure is rethrown as it was thrown.
     */
    public static <T, R> List<R> inParallel(List<T> items, Function<T, R> work) {
        if (items.size() <= 1) {
            return items.stream().map(work).toList();
        }
        List<Future<R>> futures = new ArrayList<>(items.size());
        Map<String, String> overrides = HadoopConfiguration.overrides(); // the session's, on the pool's threads too
        for (T item : items) {
            futures.add(POOL.submit(() -> HadoopConfiguration.withOverrides(overrides, () -> work.apply(item))));
        }
        List<R> out = new ArrayList<>(items.size());
        try {
            for (Future<R> f : futures) {
                out.add(f.get());
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SluiceException("interrupted while listing files", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new SluiceException(e.getCause().getMessage(), e.getCause());
        } finally {
            futures.forEach(f -> f.cancel(true));
        }
    }

    /** Whether listing skips an entry of this name: hidden and bookkeeping names, as Spark skips them. */
    public static boolean skipped(String name, boolean directory) {
        if (name.startsWith(".")) {
            return true;
        }
        if (name.startsWith("_")) {
            return !(directory && name.indexOf('=') > 0);
        }
        return !directory && (name.endsWith(".crc") || name.endsWith("._COPYING_"));
    }

    /**
     * The paths of a location: split at commas, except a comma escaped as {@code \\,} or inside a
     * glob's {@code {a,b}} alternation; blank parts dropped, none at all an error naming the location.
     */
    public static List<String> paths(String location) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int braces = 0;
        for (int i = 0; i < location.length(); i++) {
            char c = location.charAt(i);
            if (c == '\\' && i + 1 < location.length() && location.charAt(i + 1) == ',') {
                current.append(',');
                i++;
            } else if (c == ',' && braces == 0) {
                add(out, current);
            } else {
                braces += c == '{' ? 1 : c == '}' && braces > 0 ? -1 : 0;
                current.append(c);
            }
        }
        add(out, current);
        if (out.isEmpty()) {
            throw new SluiceException("file location is empty: '" + location + "'");
        }
        return out;
    }

    private static void add(List<String> paths, StringBuilder path) {
        String p = path.toString().trim();
        if (!p.isEmpty()) {
            paths.add(p);
        }
        path.setLength(0);
    }

    /** Whether a path is a glob (has a wildcard or an alternation). */
    public static boolean isGlob(String path) {
        return path.indexOf('*') >= 0 || path.indexOf('?') >= 0 || path.indexOf('[') >= 0 || path.indexOf('{') >= 0;
    }

    /** The decoded {@code [key, value]} of each {@code key=value} directory between {@code root} and the file. */
    private static List<String[]> partitionPairs(Path root, Path file) {
        if (root == null) {
            return List.of();
        }
        String rootPath = root.toUri().getPath();
        String dirPath = file.getParent().toUri().getPath();
        if (!dirPath.startsWith(rootPath)) {
            return List.of();
        }
        List<String[]> pairs = new ArrayList<>();
        for (String segment : dirPath.substring(rootPath.length()).split("/")) {
            String[] pair = segment.isEmpty() ? null : HivePartitionPaths.parse(segment);
            if (pair != null) {
                pairs.add(pair);
            }
        }
        return pairs;
    }

    private static boolean sameKeys(List<String> a, List<String> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).toLowerCase(Locale.ROOT).equals(b.get(i).toLowerCase(Locale.ROOT))) {
                return false;
            }
        }
        return true;
    }
}
