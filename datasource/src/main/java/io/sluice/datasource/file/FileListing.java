package io.sluice.datasource.file;

import static java.util.Objects.requireNonNull;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.Path;

/**
 * The data files of a table location, in path order, and the partition keys their directories name
 * (empty when the files are not in {@code key=value} directories). Every file has one value per key.
 */
public record FileListing(List<SourceFile> files, List<String> partitionKeys) {
    public FileListing {
        files = List.copyOf(files);
        partitionKeys = List.copyOf(partitionKeys);
        for (SourceFile f : files) {
            if (f.partitionValues().size() != partitionKeys.size()) {
                throw new IllegalArgumentException(f.path() + " has " + f.partitionValues().size()
                        + " partition values for keys " + partitionKeys);
            }
        }
    }

    public List<Path> paths() {
        return files.stream().map(f -> new Path(f.path())).toList();
    }

    public long totalBytes() {
        long total = 0;
        for (SourceFile f : files) {
            total += f.length();
        }
        return total;
    }

    /** How many distinct partition directories hold files (1 for an unpartitioned listing with files). */
    public int partitionCount() {
        Set<List<String>> distinct = new HashSet<>();
        for (SourceFile f : files) {
            distinct.add(f.partitionValues());
        }
        return distinct.size();
    }

    /** A string that changes when a file is added, removed or rewritten: each path, length and modification time. */
    public String fingerprint(String location) {
        requireNonNull(location, "location is null");
        StringBuilder out = new StringBuilder(location);
        for (SourceFile f : files) {
            out.append('|').append(f.path()).append(':').append(f.length()).append(':').append(f.modificationTime());
        }
        return out.toString();
    }
}
