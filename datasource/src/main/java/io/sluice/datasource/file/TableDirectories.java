package io.sluice.datasource.file;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import java.io.IOException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * What the catalog does to a managed table's directory, through Hadoop's FileSystem (so a
 * warehouse may live on any of its file systems): make it, see whether it holds anything, move it
 * when the table is renamed and remove it when the table is dropped. Failures are
 * {@link SluiceException}s naming the directory. Callers check locations against the file policy
 * first.
 */
public final class TableDirectories {
    private TableDirectories() {
    }

    /** Makes the directory (and its parents) if missing. */
    public static void make(String location) {
        run("create", location, () -> fs(location).mkdirs(new Path(location)));
    }

    /** Whether the location exists and holds at least one entry (or is a file). */
    public static boolean holdsAnything(String location) {
        return run("list", location, () -> {
            Path path = new Path(location);
            FileSystem fs = fs(location);
            if (!fs.exists(path)) {
                return false;
            }
            FileStatus status = fs.getFileStatus(path);
            return !status.isDirectory() || fs.listStatus(path).length > 0;
        });
    }

    /** Removes the directory and everything under it; a missing one is fine. */
    public static void delete(String location) {
        run("delete", location, () -> {
            Path path = new Path(location);
            FileSystem fs = fs(location);
            return !fs.exists(path) || fs.delete(path, true);
        });
    }

    /** Moves {@code from} to {@code to} (whose parent is made); a missing {@code from} just makes {@code to}. */
    public static void move(String from, String to) {
        run("move", from, () -> {
            Path source = new Path(from);
            Path target = new Path(to);
            FileSystem fs = fs(from);
            if (fs.exists(target)) {
                throw new SluiceException("cannot move " + from + " to " + to + ": the target exists");
            }
            if (!fs.exists(source)) {
                return fs.mkdirs(target);
            }
            fs.mkdirs(target.getParent());
            if (!fs.rename(source, target)) {
                throw new IOException("rename returned false");
            }
            return true;
        });
    }

    private static FileSystem fs(String location) throws IOException {
        return new Path(requireNonNull(location, "location is null")).getFileSystem(HadoopConfiguration.shared());
    }

    private interface Io<T> {
        T run() throws IOException;
    }

    private static <T> T run(String what, String location, Io<T> work) {
        try {
            return work.run();
        } catch (IOException e) {
            throw new SluiceException("cannot " + what + " the table directory " + location + ": " + e.getMessage(), e);
        }
    }
}
