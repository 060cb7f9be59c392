package io.sluice.plan.source;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.types.Schema;
import org.apache.hadoop.conf.Configuration;

/**
 * Entry point to the file formats: the reader for each {@link FileFormat} and table registration.
 * All file access goes through Hadoop's {@code FileSystem} with one shared {@link Configuration},
 * so file://, hdfs:// and (once the connector is on the class path) s3a:// all work.
 */
public final class FileFormats {
    private static final Configuration CONF = new Configuration();
    private static final FormatReader CSV = new CsvFormat();
    private static final FormatReader PARQUET = new ParquetFormat();

    private FileFormats() {
    }

    /** The stateless, thread-safe reader of a format. */
    public static FormatReader reader(FileFormat format) {
        requireNonNull(format, "format is null");
        return switch (format) {
            case CSV -> CSV;
            case PARQUET -> PARQUET;
        };
    }

    /** A table named {@code name} over the files at {@code location}, with the schema read from them now. */
    /** Bytes on disk at a location (a file, or a directory's files): the basis of size estimates. */
    public static long totalBytes(String location) {
        return SourceFiles.totalBytes(location);
    }

    public static TableSource register(String name, FileFormat format, String location) {
        requireNonNull(name, "name is null");
        requireNonNull(location, "location is null");
        Schema schema = reader(format).inferSchema(location);
        return new TableSource(name, format, location, schema);
    }

    /** The shared Hadoop configuration. Callers must not modify it. */
    static Configuration conf() {
        return CONF;
    }
}
