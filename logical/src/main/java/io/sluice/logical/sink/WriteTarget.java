package io.sluice.logical.sink;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.FormatOptions;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where and how a query's result is written: a directory (any Hadoop {@code FileSystem} URI), the
 * file format, what to do if the directory exists, and the format's options (in their normal form,
 * {@link FormatOptions}; a table written with them reads back with them). {@code writeId} is unique
 * per write and goes into every file name, so appended files never collide with earlier ones.
 * {@code partitionBy} names the columns whose values become Hive {@code key=value} directories
 * instead of file columns; an overwrite of a partitioned target replaces only the partitions
 * written (dynamic partition overwrite).
 *
 * <p>{@code hadoop} holds Hadoop keys and values the target's files are written and committed with
 * over the node's configuration (a writer's {@code option("sluice.hadoop.K", v)}, Spark's
 * {@code option("fs.s3a.…", v)}), as a {@code TableSource}'s are for its read: they are the
 * write's only, so the query that computes the rows reads its sources with their own. Values may be
 * secrets: {@link #toString} names the keys only.
 */
public record WriteTarget(String location, FileFormat format, SaveMode mode, String writeId, Map<String, String> options,
        List<String> partitionBy, Map<String, String> hadoop) {
    public WriteTarget {
        options = FormatOptions.normalize(options);
        partitionBy = List.copyOf(partitionBy);
        hadoop = Collections.unmodifiableMap(new LinkedHashMap<>(new TreeMap<>(hadoop)));
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
        this(location, format, mode, writeId, Map.of(), List.of(), Map.of());
    }

    /** A target not partitioned, written with the node's Hadoop configuration. */
    public WriteTarget(String location, FileFormat format, SaveMode mode, String writeId, Map<String, String> options) {
        this(location, format, mode, writeId, options, List.of(), Map.of());
    }

    /** The same write to {@code newLocation} (the location's normal form, once checked). */
    public WriteTarget withLocation(String newLocation) {
        return new WriteTarget(newLocation, format, mode, writeId, options, partitionBy, hadoop);
    }

    /** This target, its files in partition directories of {@code columns}. */
    public WriteTarget withPartitionBy(List<String> columns) {
        return new WriteTarget(location, format, mode, writeId, options, columns, hadoop);
    }

    /** This target, its files written and committed with {@code overrides} (Hadoop keys to values) over the node's configuration. */
    public WriteTarget withHadoop(Map<String, String> overrides) {
        return new WriteTarget(location, format, mode, writeId, options, partitionBy, overrides);
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

    /** As the record's, but the Hadoop overrides by key only: their values may be credentials. */
    @Override
    public String toString() {
        return "WriteTarget[location=" + location + ", format=" + format + ", mode=" + mode + ", writeId=" + writeId
                + ", options=" + options + ", partitionBy=" + partitionBy + ", hadoop=" + hadoop.keySet() + "]";
    }

    /** The name of the file partition {@code partition} writes, e.g. {@code part-00003-<writeId>.parquet}. */
    public String fileName(int partition) {
        return String.format("part-%05d-%s.%s", partition, writeId,
                format.name().toLowerCase(java.util.Locale.ROOT));
    }
}
