package io.sluice.datasource.file;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One data file of a table, as listing found it: its fully qualified path, length and modification
 * time, and the values its Hive-style {@code key=value} directories give it, decoded, in the order
 * of the listing's partition keys ({@code null} for {@code __HIVE_DEFAULT_PARTITION__}).
 */
public record SourceFile(String path, long length, long modificationTime, List<String> partitionValues) {
    public SourceFile {
        requireNonNull(path, "path is null");
        partitionValues = Collections.unmodifiableList(new ArrayList<>(partitionValues)); // NULL values allowed
    }
}
