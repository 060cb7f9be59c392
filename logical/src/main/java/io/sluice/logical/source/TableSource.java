package io.sluice.logical.source;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A registered table: files of one format at a location (a file, a directory, a glob, or several
 * of these separated by commas; any Hadoop {@code FileSystem} URI), with the schema found (or
 * declared) when it was registered and the options its format reads them with
 * ({@link FormatOptions}: lower-case names, sorted, read-only). {@code partitionColumns} name the
 * schema's Hive partition columns (their values come from {@code key=value} directories, not from
 * the files), which the schema lists last.
 *
 * <p>{@code hadoop} holds Hadoop keys and values this source's files are opened with over the node's
 * configuration (a reader's {@code option("sluice.hadoop.K", v)}, Spark's {@code option("fs.s3a.…", v)}):
 * they travel with the source, so each scan of a join or union lists and opens its files with its own,
 * on the coordinator and on every worker. Values may be secrets: {@link #toString} names the keys only.
 */
public record TableSource(String name, FileFormat format, String location, Schema schema, Map<String, String> options,
        List<String> partitionColumns, Map<String, String> hadoop) {
    public TableSource {
        requireNonNull(name, "name is null");
        requireNonNull(format, "format is null");
        requireNonNull(location, "location is null");
        requireNonNull(schema, "schema is null");
        options = FormatOptions.normalize(options);
        partitionColumns = List.copyOf(partitionColumns);
        for (String column : partitionColumns) {
            schema.field(column);
        }
        hadoop = Collections.unmodifiableMap(new LinkedHashMap<>(new TreeMap<>(hadoop)));
    }

    /** A table whose files are opened with the node's Hadoop configuration. */
    public TableSource(String name, FileFormat format, String location, Schema schema, Map<String, String> options,
            List<String> partitionColumns) {
        this(name, format, location, schema, options, partitionColumns, Map.of());
    }

    /** A table read with its format's default options, not partitioned. */
    public TableSource(String name, FileFormat format, String location, Schema schema) {
        this(name, format, location, schema, Map.of(), List.of());
    }

    /** A table whose files are not partitioned. */
    public TableSource(String name, FileFormat format, String location, Schema schema, Map<String, String> options) {
        this(name, format, location, schema, options, List.of());
    }

    /** A table read with its format's default options. */
    public TableSource(String name, FileFormat format, String location, Schema schema, List<String> partitionColumns) {
        this(name, format, location, schema, Map.of(), partitionColumns);
    }

    public boolean isPartitioned() {
        return !partitionColumns.isEmpty();
    }

    /** This source with its files opened with {@code overrides} (Hadoop keys to values) over the node's configuration. */
    public TableSource withHadoop(Map<String, String> overrides) {
        return new TableSource(name, format, location, schema, options, partitionColumns, overrides);
    }

    /** As the record's, but the Hadoop overrides by key only: their values may be credentials. */
    @Override
    public String toString() {
        return "TableSource[name=" + name + ", format=" + format + ", location=" + location + ", schema=" + schema
                + ", options=" + options + ", partitionColumns=" + partitionColumns + ", hadoop=" + hadoop.keySet() + "]";
    }
}
