package io.sluice.datasource.sink;

import io.sluice.common.SluiceException;
import io.sluice.datasource.file.CommitManifest;
import io.sluice.datasource.file.HadoopConfiguration;
import io.sluice.datasource.file.SourceFiles;
import io.sluice.logical.sink.SaveMode;
import io.sluice.logical.sink.WriteTarget;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * The steps both {@link CommitProtocol}s share: the target's check before a job, its data files by
 * path relative to it, the set a commit's manifest lists, and the removal of what that set no
 * longer holds.
 */
final class CommitFiles {
    private CommitFiles() {
    }

    /** What a protocol's setup does once the target passed its check. */
    @FunctionalInterface
    interface Preparation {
        void prepare(FileSystem fs, Path base, boolean existed) throws IOException;
    }

    /** A protocol's setup: the target's check ({@link #checkTarget}), then {@code preparation}; whether the target existed. */
    static boolean setup(WriteTarget target, Preparation preparation) {
        Path base = new Path(target.location());
        try {
            FileSystem fs = base.getFileSystem(HadoopConfiguration.shared());
            boolean existed = checkTarget(fs, base, target);
            preparation.prepare(fs, base, existed);
            return existed;
        } catch (IOException e) {
            throw new SluiceException("cannot check the write target '" + target.location() + "': " + e.getMessage(), e);
        }
    }

    /**
     * Refuses a target that is a file, or that exists when the mode is {@link SaveMode#ERROR_IF_EXISTS};
     * returns whether it exists.
     */
    private static boolean checkTarget(FileSystem fs, Path base, WriteTarget target) throws IOException {
        if (!fs.exists(base)) {
            return false;
        }
        if (!fs.getFileStatus(base).isDirectory()) {
            throw new SluiceException("cannot write to '" + target.location() + "': it is a file, not a directory");
        }
        if (target.mode() == SaveMode.ERROR_IF_EXISTS) {
            throw new SluiceException("cannot write to '" + target.location() + "': it already exists "
                    + "(use save mode overwrite or append to write there anyway)");
        }
        return true;
    }

    /**
     * Every data file below {@code base}, by its path relative to it (names readers skip left out).
     * On a local disk no symbolic link is followed, and one that leads out of {@code base} is refused:
     * an overwrite deletes what this returns.
     */
    static Set<String> dataFiles(FileSystem fs, Path base) throws IOException {
        Set<String> out = new TreeSet<>();
        if (!fs.exists(base)) {
            return out;
        }
        FileSystem raw = fs instanceof LocalFileSystem local ? local.getRaw() : fs;
        if (raw instanceof RawLocalFileSystem local) {
            localDataFiles(local.pathToFile(base).toPath(), out);
            return out;
        }
        String root = fs.makeQualified(base).toUri().getPath();
        RemoteIterator<LocatedFileStatus> files = fs.listFiles(base, true);
        while (files.hasNext()) {
            String path = files.next().getPath().toUri().getPath();
            String relative = path.substring(root.length() + (root.endsWith("/") ? 0 : 1));
            if (!hidden(relative)) {
                out.add(relative);
            }
        }
        return out;
    }

    private static void localDataFiles(java.nio.file.Path base, Set<String> out) throws IOException {
        java.nio.file.Path root = base.toRealPath();
        try (java.util.stream.Stream<java.nio.file.Path> walk = Files.walk(base)) {
            for (java.nio.file.Path path : (Iterable<java.nio.file.Path>) walk::iterator) {
                String relative = base.relativize(path).toString().replace('\\', '/');
                if (relative.isEmpty() || hidden(relative)) {
                    continue;
                }
                if (Files.isSymbolicLink(path) && !path.toRealPath().startsWith(root)) {
                    throw new SluiceException("cannot write to '" + base + "': " + path + " is a link to "
                            + path.toRealPath() + ", outside the table directory " + root);
                }
                if (Files.isRegularFile(path) && !Files.isDirectory(path)) {
                    out.add(relative);
                }
            }
        }
    }

    private static boolean hidden(String relative) {
        String[] segments = relative.split("/");
        for (int i = 0; i < segments.length; i++) {
            if (SourceFiles.skipped(segments[i], i < segments.length - 1)) {
                return true;
            }
        }
        return false;
    }

    /** What readers see at {@code base} now: its manifest's list, or every data file when it has none. */
    static Set<String> visible(FileSystem fs, Path base, Set<String> present) throws IOException {
        return CommitManifest.read(fs, base).<Set<String>>map(LinkedHashSet::new).orElse(present);
    }

    /**
     * The files a commit publishes: the added ones, plus, to append, every file visible before; a
     * dynamic partition overwrite keeps the visible files of the partition directories it wrote nothing into.
     */
    static Set<String> next(WriteTarget target, Set<String> visible, Collection<String> added) {
        Set<String> listed = new TreeSet<>();
        if (target.mode() != SaveMode.OVERWRITE) {
            listed.addAll(visible);
        } else if (target.isPartitioned()) {
            Set<String> written = new LinkedHashSet<>();
            added.forEach(file -> written.add(directory(file)));
            visible.stream().filter(file -> !written.contains(directory(file))).forEach(listed::add);
        }
        listed.addAll(added);
        return listed;
    }

    private static String directory(String relative) {
        int slash = relative.lastIndexOf('/');
        return slash < 0 ? "" : relative.substring(0, slash);
    }

    /**
     * Deletes the files of {@code present} that {@code listed} does not hold and {@code removable}
     * accepts, then the partition directories that left empty. A symbolic link is removed, never followed.
     */
    static void removeUnlisted(FileSystem fs, Path base, Set<String> present, Set<String> listed,
            Predicate<String> removable) throws IOException {
        TreeSet<String> emptied = new TreeSet<>();
        for (String file : present) {
            if (!listed.contains(file) && removable.test(file)) {
                fs.delete(new Path(base, file), false);
                if (!directory(file).isEmpty()) {
                    emptied.add(directory(file));
                }
            }
        }
        for (String dir : emptied.descendingSet()) {
            for (Path d = new Path(base, dir); !d.equals(base) && d.depth() > base.depth(); d = d.getParent()) {
                FileStatus[] children = fs.exists(d) ? fs.listStatus(d) : null;
                if (children == null || children.length > 0) {
                    break;
                }
                fs.delete(d, false);
            }
        }
    }

    /**
     * Refuses a directory a commit moves files into, or tasks write below, that leaves {@code base}
     * through a symbolic link (checked on local disks; HDFS and object stores resolve no links).
     */
    static void checkInside(FileSystem fs, Path base, Path dir) throws IOException {
        FileSystem raw = fs instanceof LocalFileSystem local ? local.getRaw() : fs;
        if (!(raw instanceof RawLocalFileSystem local) || !fs.exists(dir)) {
            return;
        }
        java.nio.file.Path real = local.pathToFile(dir).toPath().toRealPath();
        java.nio.file.Path root = local.pathToFile(base).toPath().toRealPath();
        if (!real.startsWith(root)) {
            throw new SluiceException("cannot write to '" + dir + "': it is a link to " + real + ", outside the table "
                    + "directory " + root);
        }
    }
}
