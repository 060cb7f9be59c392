package io.sluice.api;

import io.sluice.datasource.FileFormats;
import io.sluice.logical.plan.TableScan;
import io.sluice.logical.source.FileFormat;

/** Opens files as DataFrames; the schema is read (or, for CSV, inferred) now. */
public final class DataFrameReader {
    private final Session session;

    DataFrameReader(Session session) {
        this.session = session;
    }

    /** CSV files with a header line: a file or a directory, any Hadoop FileSystem path. */
    public DataFrame csv(String path) {
        return load(FileFormat.CSV, path);
    }

    /** Parquet files: a file or a directory, any Hadoop FileSystem path. */
    public DataFrame parquet(String path) {
        return load(FileFormat.PARQUET, path);
    }

    private DataFrame load(FileFormat format, String path) {
        return new DataFrame(session, new TableScan(FileFormats.register(path, format, path)));
    }
}
