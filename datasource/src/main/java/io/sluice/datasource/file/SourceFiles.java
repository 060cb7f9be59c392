package io.sluice.datasource.file;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** Resolves a table location to its data files through Hadoop's {@code FileSystem}. */
public final class SourceFiles {
    private SourceFiles() {
    }

    /**
     * The data files at {@code location}: the file itself, or a directory's files whose names do not
     * start with '_' or '.' (and, where the directory has a {@link CommitManifest}, that it lists),
     * sorted by name. Paths are fully qualified. A missing location is a {@link SluiceException}
     * naming it; an empty directory yields an empty list.
     */
    public static List<Path> list(String location) {
        requireNonNull(location, "location is null");
        if (location.isBlank()) {
            throw new SluiceException("file location is empty");
        }
        try {
            Path path = new Path(location);
            FileSystem fs = path.getFileSystem(HadoopConfiguration.shared());
            FileStatus status = fs.getFileStatus(path);
            if (!status.isDirectory()) {
                return List.of(status.getPath());
            }
            List<Path> files = new ArrayList<>();
            long manifestSize = 0;
            for (FileStatus child : fs.listStatus(path)) {
                String name = child.getPath().getName();
                if (child.isFile() && !name.startsWith("_") && !name.startsWith(".")) {
                    files.add(child.getPath());
                } else if (child.isFile() && name.equals(CommitManifest.FILE)) {
                    manifestSize = child.getLen();
                }
            }
            files.sort(Comparator.comparing(Path::getName));
            return CommitManifest.visible(fs, path, files, manifestSize);
        } catch (FileNotFoundException e) {
            throw new SluiceException("file not found: " + location, e);
        } catch (IOException | IllegalArgumentException e) {
            throw new SluiceException("cannot list " + location + ": " + e.getMessage(), e);
        }
    }

    /** Total size in bytes of the files at {@code location}. */
    public static long totalBytes(String location) {
        long total = 0;
        for (Path file : list(location)) {
            try {
                total += file.getFileSystem(HadoopConfiguration.shared()).getFileStatus(file).getLen();
            } catch (IOException e) {
                throw new SluiceException("cannot read the size of " + file + ": " + e.getMessage(), e);
            }
        }
        return total;
    }

    /**
     * A string that changes when the files at {@code location} change: each file's name, length and
     * modification time.
     */
    public static String fingerprint(String location) {
        StringBuilder out = new StringBuilder(location);
        for (Path file : list(location)) {
            try {
                FileStatus status = file.getFileSystem(HadoopConfiguration.shared()).getFileStatus(file);
                out.append('|').append(file.getName()).append(':').append(status.getLen()).append(':')
                        .append(status.getModificationTime());
            } catch (IOException e) {
                throw new SluiceException("cannot read the status of " + file + ": " + e.getMessage(), e);
            }
        }
        return out.toString();
    }

    /** The first data file at {@code location}; an empty directory is a user error. */
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
}
