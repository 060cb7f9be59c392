package io.sluice.datasource.file;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.GlobPattern;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Resolves a table location to its data files through Hadoop's {@code FileSystem}, as Spark does.
 * A location is one path or several separated by commas (a comma inside a path is written
 * {@code \,}); each path is a file, a directory (listed recursively) or a glob ({@code
 * /data/2024-*}{@code /part-*.parquet}, whose matches are listed the same way). Names starting with
 * {@code .} or {@code _} ({@code _SUCCESS}, {@code _committed_*}, {@code _temporary}, ...) are skipped,
 * files and directories alike, except {@code _key=value} partition directories; so are {@code .crc}
 * checksums. Directories named {@code key=value} below a listed directory (or below a glob's fixed
 * prefix) give their files partition values. Directories of one level are listed in parallel on a
 * bounded pool shared by the node, so thousands of files list quickly on object stores and local
 * disks alike. A listing of {@value #CACHED_LISTING_FILES} files or more is reused for
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
    private static final int MAX_DEPTH = 64;
    /** Recent large listings by location, least recently used dropped first. */
    private static final Map<String, Listed> LISTINGS = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Listed> eldest) {
            return size() > CACHED_LISTINGS;
        }
    };
    /** The guard of the query this thread plans, if any ({@link #guarded}). */
    private static final ThreadLocal<FileGuard> GUARD = new ThreadLocal<>();
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
        long now = System.nanoTime();
        synchronized (LISTINGS) {
            Listed recent = LISTINGS.get(location);
            if (recent != null && now - recent.listedAt() < TimeUnit.SECONDS.toNanos(LISTING_REUSE_SECONDS)) {
                return checked(location, recent.listing());
            }
        }
        FileListing listing = checked(location, listNow(location));
        if (listing.files().size() >= CACHED_LISTING_FILES) {
            synchronized (LISTINGS) {
                LISTINGS.put(location, new Listed(listing, now));
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
            LISTINGS.clear();
        }
    }

    private record Listed(FileListing listing, long listedAt) {
    }

    private static FileListing listNow(String location) {
        List<SourceFile> files = new ArrayList<>();
        List<String> keys = null;
        String keysFrom = null;
        for (String one : paths(location)) {
            for (Found found : listPath(one)) {
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
        List<Path> files = list(location);
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
     * {@code work} applied to each item on the listing pool (in the caller's thread when there is
     * one item), results in item order; the first failure is rethrown as it was thrown.
     */
    public static <T, R> List<R> inParallel(List<T> items, Function<T, R> work) {
        if (items.size() <= 1) {
            return items.stream().map(work).toList();
        }
        List<Future<R>> futures = new ArrayList<>(items.size());
        for (T item : items) {
            futures.add(POOL.submit(() -> work.apply(item)));
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

    /** A data file found, and the directory its partition directories are counted from. */
    private record Found(FileStatus status, Path root) {
    }

    private static List<Found> listPath(String location) {
        try {
            Path path = new Path(location);
            FileSystem fs = path.getFileSystem(HadoopConfiguration.shared());
            if (fs instanceof LocalFileSystem local) {
                fs = local.getRaw(); // the checksum layer only hides .crc files, which listing skips anyway
            }
            path = fs.makeQualified(path);
            List<FileStatus> roots;
            Path root;
            if (isGlob(location)) {
                FileStatus[] matched = fs.globStatus(path);
                if (matched == null || matched.length == 0) {
                    throw new SluiceException("no file matches " + location);
                }
                roots = Arrays.asList(matched);
                root = fixedPrefix(path);
            } else {
                FileStatus status = fs.getFileStatus(path);
                roots = List.of(status);
                root = status.isDirectory() ? status.getPath() : null; // a file named alone has no partition directories
            }
            List<Found> found = new ArrayList<>();
            List<FileStatus> directories = new ArrayList<>();
            List<FileStatus> matchedFiles = new ArrayList<>();
            for (FileStatus s : roots) {
                (s.isDirectory() ? directories : matchedFiles).add(s);
            }
            if (isGlob(location)) { // files a glob matches are hidden as their directory's manifest says
                for (FileStatus file : visible(fs, matchedFiles, manifestsOf(fs, matchedFiles))) {
                    found.add(new Found(file, root));
                }
            } else {
                matchedFiles.forEach(file -> found.add(new Found(file, root)));
            }
            Map<Path, Long> manifests = new LinkedHashMap<>();
            for (FileStatus file : visible(fs, walk(fs, directories, location, manifests), manifests)) {
                found.add(new Found(file, root));
            }
            return found;
        } catch (FileNotFoundException e) {
            throw new SluiceException("file not found: " + location, e);
        } catch (IOException | IllegalArgumentException e) {
            throw new SluiceException("cannot list " + location + ": " + e.getMessage(), e);
        }
    }

    /**
     * The files below {@code directories}, one level at a time, each level's directories listed in
     * parallel; the size of each non-empty {@code _SUCCESS} met goes into {@code manifests} by directory.
     */
    private static List<FileStatus> walk(FileSystem fs, List<FileStatus> directories, String location,
            Map<Path, Long> manifests) {
        List<FileStatus> files = new ArrayList<>();
        List<FileStatus> level = directories;
        for (int depth = 0; !level.isEmpty(); depth++) {
            if (depth > MAX_DEPTH) {
                throw new SluiceException("cannot list " + location + ": directories nest deeper than " + MAX_DEPTH
                        + " levels (a link loop?)");
            }
            List<FileStatus> next = new ArrayList<>();
            for (FileStatus[] children : inParallel(level, dir -> listDirectory(fs, dir.getPath()))) {
                for (FileStatus child : children) {
                    if (child.isFile() && child.getLen() > 0 && child.getPath().getName().equals(CommitManifest.FILE)) {
                        manifests.put(child.getPath().getParent(), child.getLen());
                    }
                    if (skipped(child.getPath().getName(), child.isDirectory())) {
                        continue;
                    }
                    (child.isDirectory() ? next : files).add(child);
                }
            }
            level = next;
        }
        return files;
    }

    /** The size of each non-empty {@code _SUCCESS} in the directories of {@code files}, by directory. */
    private static Map<Path, Long> manifestsOf(FileSystem fs, List<FileStatus> files) throws IOException {
        Map<Path, Long> manifests = new LinkedHashMap<>();
        for (Path dir : files.stream().map(f -> f.getPath().getParent()).distinct().toList()) {
            try {
                FileStatus manifest = fs.getFileStatus(new Path(dir, CommitManifest.FILE));
                if (manifest.isFile() && manifest.getLen() > 0) {
                    manifests.put(dir, manifest.getLen());
                }
            } catch (FileNotFoundException e) {
                // no manifest: every file of the directory counts
            }
        }
        return manifests;
    }

    /**
     * {@code files} less those the {@link CommitManifest} of their nearest manifest-holding ancestor
     * does not name by their path relative to it (each manifest read once).
     */
    private static List<FileStatus> visible(FileSystem fs, List<FileStatus> files, Map<Path, Long> manifests) {
        if (manifests.isEmpty()) {
            return files;
        }
        Map<Path, Optional<Set<String>>> named = new LinkedHashMap<>();
        List<FileStatus> out = new ArrayList<>(files.size());
        for (FileStatus file : files) {
            String relative = file.getPath().getName();
            Path dir = file.getPath().getParent();
            while (dir != null && !manifests.containsKey(dir)) {
                relative = dir.getName() + "/" + relative;
                dir = dir.getParent();
            }
            if (dir == null) {
                out.add(file);
                continue;
            }
            Optional<Set<String>> names = named.computeIfAbsent(dir, d -> manifestNames(fs, d));
            if (names.isEmpty() || names.get().contains(relative)) {
                out.add(file);
            }
        }
        return out;
    }

    private static Optional<Set<String>> manifestNames(FileSystem fs, Path dir) {
        try {
            return CommitManifest.read(fs, dir).map(Set::copyOf);
        } catch (IOException e) {
            throw new SluiceException("cannot read the commit manifest " + new Path(dir, CommitManifest.FILE) + ": "
                    + e.getMessage(), e);
        }
    }

    private static FileStatus[] listDirectory(FileSystem fs, Path dir) {
        try {
            return fs.listStatus(dir);
        } catch (FileNotFoundException e) {
            return new FileStatus[0]; // removed while we listed: it holds nothing any more
        } catch (IOException e) {
            throw new SluiceException("cannot list " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The deepest ancestor of a glob whose name has no wildcard: partition directories count from there. */
    private static Path fixedPrefix(Path glob) {
        Path prefix = glob;
        for (Path p = glob; p != null; p = p.getParent()) {
            if (new GlobPattern(p.getName()).hasWildcard()) {
                prefix = p.getParent();
            }
        }
        return prefix;
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
