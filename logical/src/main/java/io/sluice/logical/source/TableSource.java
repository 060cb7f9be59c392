package io.sluice.logical.source;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import java.util.Map;

/**
 * A registered table: files of one format at a location (a file or a directory, any Hadoop
 * {@code FileSystem} URI), with the schema found (or declared) when it was registered and the
 * options its format reads them with ({@link FormatOptions}: lower-case names, sorted, read-only).
 */
public record TableSource(String name, FileFormat format, String location, Schema schema, Map<String, String> options) {
    public TableSource {
        requireNonNull(name, "name is null");
        requireNonNull(format, "format is null");
        requireNonNull(location, "location is null");
        requireNonNull(schema, "schema is null");
        options = FormatOptions.normalize(options);
    }

    /** A table read with its format's default options. */
    public TableSource(String name, FileFormat format, String location, Schema schema) {
        this(name, format, location, schema, Map.of());
    }
}
