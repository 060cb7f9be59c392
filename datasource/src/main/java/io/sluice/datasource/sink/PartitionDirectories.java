package io.sluice.datasource.sink;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The files an attempt wrote, at any depth, by their path relative to the attempt directory (which
 * is also their path under the target, partition directories included).
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
}
