package io.sluice.logical.sink;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.logical.source.FileFormat;
import java.util.List;

/**
 * Where and how a query's result is written: a directory (any Hadoop {@code FileSystem} URI), the
 * file format, and what to do if the directory exists. {@code writeId} is unique per write and goes
 * into every file name, so appended files never collide with earlier ones. {@code partitionBy} names
 * the columns whose values become Hive {@code key=value} directories instead of file columns; an
 * overwrite of a partitioned target replaces only the partitions written (dynamic partition overwrite).
 */
public record WriteTarget(String location, FileFormat format, SaveMode mode, String writeId, List<String> partitionBy) {
    public WriteTarget {
        partitionBy = List.copyOf(partitionBy);
        requireNonNull(location, "location is null");
        requireNonNull(format, "format is null");
        requireNonNull(mode, "mode is null");
        requireNonNull(writeId, "writeId is null");
        if (location.isBlank()) {
            throw new SluiceException("the write location is empty");
        }
        if (!writeId.matches("[A-Za-z0-9-]+")) {
            throw new IllegalArgumentException("writeId must be letters, digits and dashes: " + writeId);
        }
    }

    public WriteTarget(String location, FileFormat format, SaveMode mode, String writeId) {
        this(location, format, mode, writeId, List.of());
    }

    /** This target, its files in partition directories of {@code columns}. */
    public WriteTarget withPartitionBy(List<String> columns) {
        return new WriteTarget(location, format, mode, writeId, columns);
    }

    public boolean isPartitioned() {
        return !partitionBy.isEmpty();
    }

    /** A target with a fresh random write id. */
    public static WriteTarget of(String location, FileFormat format, SaveMode mode) {
        return new WriteTarget(location, format, mode, java.util.UUID.randomUUID().toString());
    }

    /** The name of the file partition {@code partition} writes, e.g. {@code part-00003-<writeId>.parquet}. */
    public String fileName(int partition) {
        return String.format("part-%05d-%s.%s", partition, writeId,
                format == FileFormat.PARQUET ? "parquet" : "csv");
    }
}
