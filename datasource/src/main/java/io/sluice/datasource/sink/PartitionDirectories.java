package io.sluice.datasource.sink;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The part of a commit that knows partition directories: the files an attempt wrote, at any depth,
 * by their path relative to the attempt directory (which is also their path under the target), and
 * the partition directories a dynamic partition overwrite replaces: exactly those the job wrote into.
 */
final class PartitionDirectories {
    private PartitionDirectories() {
    }

    /** The paths, relative to {@code attempt}, of every file under it (checksum files are the file system's own). */
    static List<String> files(FileSystem fs, Path attempt) throws IOException {
        List<String> out = new ArrayList<>();
        collect(fs, attempt, "", out);
        return out;
    }

    private static void collect(FileSystem fs, Path dir, String prefix, List<String> out) throws IOException {
        for (FileStatus child : fs.listStatus(dir)) {
            String name = prefix + child.getPath().getName();
            if (child.isDirectory()) {
                collect(fs, child.getPath(), name + "/", out);
            } else {
                out.add(name);
            }
        }
    }

    /** Deletes, under {@code base}, each partition directory the attempts wrote a file into. */
    static void deleteWritten(FileSystem fs, Path base, List<String> attemptDirs) throws IOException {
        Set<String> written = new LinkedHashSet<>();
        for (String dir : attemptDirs) {
            Path attempt = new Path(dir);
            if (!fs.exists(attempt)) {
                continue;
            }
            for (String file : files(fs, attempt)) {
                int slash = file.lastIndexOf('/');
                if (slash > 0) {
                    written.add(file.substring(0, slash));
                }
            }
        }
        for (String partition : written) {
            Path existing = new Path(base, partition);
            if (fs.exists(existing) && !fs.delete(existing, true)) {
                throw new IOException("cannot delete " + existing);
            }
        }
    }
}
