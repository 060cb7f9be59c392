package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.datasource.FileFormats;
import io.sluice.logical.sink.SaveMode;
import io.sluice.logical.sink.WriteTarget;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.FormatOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes a DataFrame's rows as files in a directory, one file per partition of the query's last
 * stage, visible only once the whole job succeeded ({@code _SUCCESS} marks it). By default an
 * existing directory is an error; {@link #mode} chooses overwrite or append instead. Options are the
 * format's, as a reader takes them (CSV: {@code header}, {@code delimiter}, {@code quote},
 * {@code escape}, {@code nullValue}, {@code dateFormat}, {@code timestampFormat}), checked before
 * anything is written; an option {@code sluice.hadoop.K} is the Hadoop key {@code K} for this write.
 */
public final class DataFrameWriter {
    private final DataFrame frame;
    private final SaveMode mode;
    private final FileFormat format;
    private final Map<String, String> options;
    private final List<String> partitionBy;

    DataFrameWriter(DataFrame frame, SaveMode mode) {
        this(frame, mode, FileFormat.PARQUET, Map.of(), List.of());
    }

    private DataFrameWriter(DataFrame frame, SaveMode mode, FileFormat format, Map<String, String> options,
            List<String> partitionBy) {
        this.frame = requireNonNull(frame, "frame is null");
        this.mode = requireNonNull(mode, "mode is null");
        this.format = requireNonNull(format, "format is null");
        this.options = FormatOptions.normalize(options);
        this.partitionBy = List.copyOf(partitionBy);
    }

    public DataFrameWriter mode(SaveMode newMode) {
        return new DataFrameWriter(frame, newMode, format, options, partitionBy);
    }

    /** {@code "error"} / {@code "errorifexists"}, {@code "overwrite"} or {@code "append"}. */
    public DataFrameWriter mode(String newMode) {
        return mode(SaveMode.parse(newMode));
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
        return new DataFrameWriter(frame, mode, format, options, names);
    }

    /** The format by name for {@link #save}: {@code parquet} (the default) or {@code csv}. */
    public DataFrameWriter format(String name) {
        return new DataFrameWriter(frame, mode, FileFormat.parse(name), options, partitionBy);
    }

    /** One option of the format; a later value for a name replaces an earlier one. */
    public DataFrameWriter option(String name, String value) {
        return options(Map.of(name, value));
    }

    public DataFrameWriter option(String name, boolean value) {
        return option(name, Boolean.toString(value));
    }

    public DataFrameWriter options(Map<String, String> more) {
        return new DataFrameWriter(frame, mode, format, FormatOptions.with(options, more), partitionBy);
    }

    /** Writes files of the format set into the directory {@code path}; returns the rows written. */
    public long save(String path) {
        return write(format, path);
    }

    /** Writes Parquet files into the directory {@code path} (any Hadoop FileSystem URI); returns the rows written. */
    public long parquet(String path) {
        return write(FileFormat.PARQUET, path);
    }

    /** Writes CSV files (by default with a header line) into the directory {@code path}; returns the rows written. */
    public long csv(String path) {
        return write(FileFormat.CSV, path);
    }

    /** Writes JSON lines files (one object per row, NULL fields left out) into the directory {@code path}; returns the rows written. */
    public long json(String path) {
        return write(FileFormat.JSON, path);
    }

    /** An option {@code sluice.hadoop.K} is the Hadoop key {@code K} for this write only (as a reader's is for its read). */
    private long write(FileFormat written, String path) {
        HadoopOptions split = HadoopOptions.of(options);
        FileFormats.checkWriteOptions(written, split.format());
        return frame.writeTo(WriteTarget.of(path, written, mode, split.format()).withPartitionBy(partitionBy)
                .withHadoop(split.hadoop()));
    }
}
