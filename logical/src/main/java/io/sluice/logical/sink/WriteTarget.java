package io.sluice.logical.sink;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.FormatOptions;
import java.util.List;
import java.util.Map;

/**
 * Where and how a query's result is written: a directory (any Hadoop {@code FileSystem} URI), the
 * file format, what to do if the directory exists, and the format's options (in their normal form,
 * {@link FormatOptions}; a table written with them reads back with them). {@code writeId} is unique
 * per write and goes into every file name, so appended files never collide with earlier ones.
 * {@code partitionBy} names the columns whose values become Hive {@code key=value} directories
 * instead of file columns; an overwrite of a partitioned target replaces only the partitions
 * written (dynamic partition overwrite).
 */
public record WriteTarget(String location, FileFormat format, SaveMode mode, String writeId, Map<String, String> options,
        List<String> partitionBy) {
    public WriteTarget {
        options = FormatOptions.normalize(options);
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

    /** A target written with the format's default options. */
    public WriteTarget(String location, FileFormat format, SaveMode mode, String writeId) {
        this(location, format, mode, writeId, Map.of(), List.of());
    }

    /** A target not partitioned. */
    public WriteTarget(String location, FileFormat format, SaveMode mode, String writeId, Map<String, String> options) {
        this(location, format, mode, writeId, options, List.of());
    }

    /** This target, its files in partition directories of {@code columns}. */
    /** The same write to {@code newLocation} (the location's normal form, once checked). */
    public WriteTarget withLocation(String newLocation) {
        return new WriteTarget(newLocation, format, mode, writeId, options, partitionBy);
    }

    public WriteTarget withPartitionBy(List<String> columns) {
        return new WriteTarget(location, format, mode, writeId, options, columns);
    }

    public boolean isPartitioned() {
        return !partitionBy.isEmpty();
    }

    /** A target with a fresh random write id. */
    public static WriteTarget of(String location, FileFormat format, SaveMode mode) {
        return of(location, format, mode, Map.of());
    }

    /** A target with a fresh random write id, written with {@code options}. */
    public static WriteTarget of(String location, FileFormat format, SaveMode mode, Map<String, String> options) {
        return new WriteTarget(location, format, mode, java.util.UUID.randomUUID().toString(), options);
    }

    /** The name of the file partition {@code partition} writes, e.g. {@code part-00003-<writeId>.parquet}. */
    public String fileName(int partition) {
        return String.format("part-%05d-%s.%s", partition, writeId,
                format.name().toLowerCase(java.util.Locale.ROOT));
    }
}
