package io.sluice.logical.source;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import java.util.List;
import java.util.Map;

/**
 * A registered table: files of one format at a location (a file, a directory, a glob, or several
 * of these separated by commas; any Hadoop {@code FileSystem} URI), with the schema found (or
 * declared) when it was registered and the options its format reads them with
 * ({@link FormatOptions}: lower-case names, sorted, read-only). {@code partitionColumns} name the
 * schema's Hive partition columns (their values come from {@code key=value} directories, not from
 * the files), which the schema lists last.
 */
public record TableSource(String name, FileFormat format, String location, Schema schema, Map<String, String> options,
        List<String> partitionColumns) {
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
}
