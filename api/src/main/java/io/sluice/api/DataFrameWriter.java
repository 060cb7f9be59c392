package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.logical.sink.SaveMode;
import io.sluice.logical.sink.WriteTarget;
import io.sluice.logical.source.FileFormat;

/**
 * Writes a DataFrame's rows as files in a directory, one file per partition of the query's last
 * stage, visible only once the whole job succeeded ({@code _SUCCESS} marks it). By default an
 * existing directory is an error; {@link #mode} chooses overwrite or append instead.
 */
public final class DataFrameWriter {
    private final DataFrame frame;
    private final SaveMode mode;

    DataFrameWriter(DataFrame frame, SaveMode mode) {
        this.frame = requireNonNull(frame, "frame is null");
        this.mode = requireNonNull(mode, "mode is null");
    }

    public DataFrameWriter mode(SaveMode newMode) {
        return new DataFrameWriter(frame, newMode);
    }

    /** {@code "error"} / {@code "errorifexists"}, {@code "overwrite"} or {@code "append"}. */
    public DataFrameWriter mode(String newMode) {
        return mode(SaveMode.parse(newMode));
    }

    /** Writes Parquet files into the directory {@code path} (any Hadoop FileSystem URI); returns the rows written. */
    public long parquet(String path) {
        return frame.writeTo(WriteTarget.of(path, FileFormat.PARQUET, mode));
    }

    /** Writes CSV files with a header line into the directory {@code path}; returns the rows written. */
    public long csv(String path) {
        return frame.writeTo(WriteTarget.of(path, FileFormat.CSV, mode));
    }

    /** Writes JSON lines files (one object per row, NULL fields left out) into the directory {@code path}; returns the rows written. */
    public long json(String path) {
        return frame.writeTo(WriteTarget.of(path, FileFormat.JSON, mode));
    }
}
