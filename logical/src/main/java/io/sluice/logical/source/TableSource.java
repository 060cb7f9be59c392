package io.sluice.logical.source;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;

/**
 * A registered table: files of one format at a location (a file or a directory, any Hadoop
 * {@code FileSystem} URI), with the schema found when it was registered.
 */
public record TableSource(String name, FileFormat format, String location, Schema schema) {
    public TableSource {
        requireNonNull(name, "name is null");
        requireNonNull(format, "format is null");
        requireNonNull(location, "location is null");
        requireNonNull(schema, "schema is null");
    }
}
