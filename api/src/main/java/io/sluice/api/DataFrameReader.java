package io.sluice.api;

import io.sluice.datasource.FileFormats;
import io.sluice.logical.plan.TableScan;
import io.sluice.logical.source.FileFormat;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens files as DataFrames; the schema is read (or, for CSV, inferred) now. A path is a file, a
 * directory (read recursively; {@code key=value} directories become partition columns) or a glob;
 * several paths make one DataFrame of all their files.
 */
public final class DataFrameReader {
    private final Session session;

    DataFrameReader(Session session) {
        this.session = session;
    }

    /** CSV files with a header line: files, directories or globs, any Hadoop FileSystem path. */
    public DataFrame csv(String path, String... morePaths) {
        return load(FileFormat.CSV, location(path, morePaths));
    }

    /** Parquet files: files, directories or globs, any Hadoop FileSystem path. */
    public DataFrame parquet(String path, String... morePaths) {
        return load(FileFormat.PARQUET, location(path, morePaths));
    }

    /** The paths as one table location: separated by commas, a comma inside a path escaped as {@code \,}. */
    private static String location(String path, String... morePaths) {
        List<String> all = new ArrayList<>();
        all.add(path);
        all.addAll(List.of(morePaths));
        return String.join(",", all.stream().map(p -> p.replace(",", "\\,")).toList());
    }

    private DataFrame load(FileFormat format, String path) {
        return new DataFrame(session, new TableScan(FileFormats.register(path, format, path)));
    }
}
