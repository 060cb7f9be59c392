package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.logical.sink.SaveMode;
import io.sluice.logical.sink.WriteTarget;
import io.sluice.logical.source.FileFormat;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a DataFrame's rows as files in a directory, one file per partition of the query's last
 * stage, visible only once the whole job succeeded ({@code _SUCCESS} marks it). By default an
 * existing directory is an error; {@link #mode} chooses overwrite or append instead.
 */
public final class DataFrameWriter {
    private final DataFrame frame;
    private final SaveMode mode;
    private final List<String> partitionBy;

    DataFrameWriter(DataFrame frame, SaveMode mode) {
        this(frame, mode, List.of());
    }

    private DataFrameWriter(DataFrame frame, SaveMode mode, List<String> partitionBy) {
        this.frame = requireNonNull(frame, "frame is null");
        this.mode = requireNonNull(mode, "mode is null");
        this.partitionBy = List.copyOf(partitionBy);
    }

    public DataFrameWriter mode(SaveMode newMode) {
        return new DataFrameWriter(frame, newMode, partitionBy);
    }

    /**
     * Writes into Hive partition directories ({@code col=value/}) of these columns (INT, BIGINT, DATE
     * or STRING), which the files then leave out; with mode overwrite, only the partitions written
     * are replaced.
     */
    public DataFrameWriter partitionBy(String... columns) {
        List<String> names = new ArrayList<>();
        for (String c : columns) {
            names.add(frame.schema().field(c).name());
        }
        return new DataFrameWriter(frame, mode, names);
    }

    /** {@code "error"} / {@code "errorifexists"}, {@code "overwrite"} or {@code "append"}. */
    public DataFrameWriter mode(String newMode) {
        return mode(SaveMode.parse(newMode));
    }

    /** Writes Parquet files into the directory {@code path} (any Hadoop FileSystem URI); returns the rows written. */
    public long parquet(String path) {
        return frame.writeTo(WriteTarget.of(path, FileFormat.PARQUET, mode).withPartitionBy(partitionBy));
    }

    /** Writes CSV files with a header line into the directory {@code path}; returns the rows written. */
    public long csv(String path) {
        return frame.writeTo(WriteTarget.of(path, FileFormat.CSV, mode).withPartitionBy(partitionBy));
    }
}
