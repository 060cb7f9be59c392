package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.datasource.FileFormats;
import io.sluice.logical.plan.TableScan;
import io.sluice.logical.source.FileFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Opens files as DataFrames; the schema is read (or, for CSV and JSON, inferred) now. Options
 * ({@link #option}) go to the format's reader, as Spark's do; a format ignores options it does not
 * know. Each call returns a new reader: a reader is immutable.
 */
public final class DataFrameReader {
    private final Session session;
    private final Map<String, String> options;

    DataFrameReader(Session session) {
        this(session, Map.of());
    }

    private DataFrameReader(Session session, Map<String, String> options) {
        this.session = requireNonNull(session, "session is null");
        this.options = Map.copyOf(options);
    }

    /** A reader with the option {@code key} set to {@code value} (e.g. JSON's {@code mode}). */
    public DataFrameReader option(String key, String value) {
        requireNonNull(key, "key is null");
        requireNonNull(value, "value is null");
        Map<String, String> more = new LinkedHashMap<>(options);
        more.put(key, value);
        return new DataFrameReader(session, more);
    }

    /** CSV files with a header line: a file or a directory, any Hadoop FileSystem path. */
    public DataFrame csv(String path) {
        return load(FileFormat.CSV, path);
    }

    /** Parquet files: a file or a directory, any Hadoop FileSystem path. */
    public DataFrame parquet(String path) {
        return load(FileFormat.PARQUET, path);
    }

    /**
     * JSON lines files (one object per line): a file or a directory, any Hadoop FileSystem path. The
     * schema is inferred from the first records with Spark's rules; the option {@code mode}
     * ({@code FAILFAST}, the default, {@code PERMISSIVE} or {@code DROPMALFORMED}) says what a
     * malformed line does.
     */
    public DataFrame json(String path) {
        return load(FileFormat.JSON, path);
    }

    private DataFrame load(FileFormat format, String path) {
        return new DataFrame(session, new TableScan(FileFormats.register(path, format, path, options)));
    }
}
