package io.sluice.datasource.file;

import io.sluice.common.SluiceException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.GlobPattern;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * The data files of one path of a location, for {@link SourceFiles}: a file, a directory listed
 * recursively, or a glob whose matches are listed the same way, less hidden and bookkeeping names
 * and less files their directory's {@link CommitManifest} does not name. On S3A a directory is one
 * flat recursive listing of its prefix (a LIST request per 1,000 files); elsewhere its directories
 * are walked one level at a time, each level's directories listed in parallel (local ones through
 * NIO, {@link LocalDirectories}).
 */
final class PathListing {
    private static final int MAX_DEPTH = 64;
    /**
     * Schemes whose {@code listFiles(dir, true)} is one flat listing of the whole prefix (S3A: a LIST
     * per 1,000 keys), far fewer requests than a walk of the directories; elsewhere it is a serial
     * walk, and the parallel walk is faster.
     */
    private static final Set<String> FLAT_LISTING_SCHEMES = Set.of("s3a");

    private PathListing() {
    }

    /** A data file found, and the directory its partition directories are counted from. */
    record Found(FileStatus status, Path root) {
    }

    /** The data files of one path of a location (a file, a directory or a glob). */
    static List<Found> list(String location) {
        try {
            Path path = new Path(location);
            FileSystem fs = path.getFileSystem(HadoopConfiguration.shared());
            if (fs instanceof LocalFileSystem local) {
                fs = local.getRaw(); // the checksum layer only hides .crc files, which listing skips anyway
            }
            path = fs.makeQualified(path);
            if (!SourceFiles.isGlob(location) && FLAT_LISTING_SCHEMES.contains(String.valueOf(path.toUri().getScheme()))) {
                return listFlat(fs, path);
            }
            List<FileStatus> roots;
            Path root;
            if (SourceFiles.isGlob(location)) {
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
            if (SourceFiles.isGlob(location)) { // files a glob matches are hidden as their directory's manifest says
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
     * The files below {@code path} (or the file itself) from one recursive listing, less those
     * below a skipped directory or skipped themselves, and less those their directory's manifest
     * does not name: what {@link #walk} finds, in a LIST request per 1,000 files on S3A.
     */
    private static List<Found> listFlat(FileSystem fs, Path path) throws IOException {
        String rootPath = path.toUri().getPath();
        List<FileStatus> files = new ArrayList<>();
        Map<Path, Long> manifests = new LinkedHashMap<>();
        boolean single = false;
        RemoteIterator<LocatedFileStatus> listed = fs.listFiles(path, true);
        while (listed.hasNext()) {
            LocatedFileStatus file = listed.next();
            String name = file.getPath().getName();
            if (file.getLen() > 0 && name.equals(CommitManifest.FILE)) {
                manifests.put(file.getPath().getParent(), file.getLen());
            }
            String filePath = file.getPath().toUri().getPath();
            if (filePath.equals(rootPath)) {
                single = true; // the location is this file
                files.add(file);
            } else if (!SourceFiles.skipped(name, false) && !belowSkippedDirectory(rootPath, filePath)) {
                files.add(file);
            }
        }
        Path root = single ? null : path;
        return visible(fs, files, manifests).stream().map(f -> new Found(f, root)).toList();
    }

    /** Whether a directory between {@code rootPath} and the file at {@code filePath} is one listing skips. */
    private static boolean belowSkippedDirectory(String rootPath, String filePath) {
        String relative = filePath.startsWith(rootPath) ? filePath.substring(rootPath.length()) : filePath;
        String[] segments = relative.split("/");
        for (int i = 0; i < segments.length - 1; i++) {
            if (!segments[i].isEmpty() && SourceFiles.skipped(segments[i], true)) {
                return true;
            }
        }
        return false;
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
            for (FileStatus[] children : SourceFiles.inParallel(level, dir -> listDirectory(fs, dir.getPath()))) {
                for (FileStatus child : children) {
                    if (child.isFile() && child.getLen() > 0 && child.getPath().getName().equals(CommitManifest.FILE)) {
                        manifests.put(child.getPath().getParent(), child.getLen());
                    }
                    if (SourceFiles.skipped(child.getPath().getName(), child.isDirectory())) {
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
            // only the file: scheme itself (a test's or a connector's subclass under another scheme lists through Hadoop)
            if (fs instanceof RawLocalFileSystem && "file".equals(dir.toUri().getScheme())) {
                return LocalDirectories.list(dir, fs.getDefaultBlockSize(dir));
            }
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
}
