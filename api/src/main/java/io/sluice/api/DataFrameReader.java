package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Schema;
import io.sluice.datasource.FileFormats;
import io.sluice.datasource.file.HadoopConfiguration;
import io.sluice.logical.plan.TableScan;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.FormatOptions;
import io.sluice.logical.source.TableSource;
import io.sluice.sql.TableDdl;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Opens files as DataFrames, as Spark's reader: {@code .format(...)}, {@code .option(k, v)} and
 * {@code .schema("a INT, b STRING")} set up a read, {@code .load(path)} (or {@code .csv(path)},
 * {@code .parquet(path)}) makes it. A path is a file, a directory (read recursively;
 * {@code key=value} directories become partition columns) or a glob; several paths make one
 * DataFrame of all their files. Options are the format's (case-insensitive names; an unknown one
 * is refused, naming the known ones); without a schema it is read (or, for CSV and JSON, inferred) from the
 * files now. An option {@code sluice.hadoop.K} is the Hadoop key {@code K} for this read, as
 * {@code SET sluice.hadoop.K} is for a SQL script (Spark's reader likewise takes Hadoop keys as
 * options): checked as {@code SET} checks it, in force when the files are listed now, and part of the
 * scanned source ({@link TableSource#hadoop}): each scan of a join or union opens its files with its
 * own, on every node. Immutable: each setter returns a new reader.
 */
public final class DataFrameReader {
    private final Session session;
    private final FileFormat format;
    private final Map<String, String> options;
    private final Schema schema;

    DataFrameReader(Session session) {
        this(session, null, Map.of(), null);
    }

    private DataFrameReader(Session session, FileFormat format, Map<String, String> options, Schema schema) {
        this.session = requireNonNull(session, "session is null");
        this.format = format;
        this.options = FormatOptions.normalize(options);
        this.schema = schema;
    }

    /** The format by name: {@code csv}, {@code parquet} or {@code json}. */
    public DataFrameReader format(String name) {
        return new DataFrameReader(session, FileFormat.parse(name), options, schema);
    }

    /** One option of the format, e.g. {@code option("delimiter", "|")}; a later value for a name replaces an earlier one. */
    public DataFrameReader option(String name, String value) {
        return options(Map.of(name, value));
    }

    public DataFrameReader option(String name, boolean value) {
        return option(name, Boolean.toString(value));
    }

    /** Several options at once, as {@link #option(String, String)}. */
    public DataFrameReader options(Map<String, String> more) {
        return new DataFrameReader(session, format, FormatOptions.with(options, more), schema);
    }

    /** The columns, as in SQL DDL ({@code "a INT, b STRING, d DATE"}): CSV columns by position, Parquet by name. */
    public DataFrameReader schema(String ddl) {
        return schema(TableDdl.columns(ddl));
    }

    public DataFrameReader schema(Schema declared) {
        return new DataFrameReader(session, format, options, requireNonNull(declared, "declared is null"));
    }

    /** The files at {@code path} (a file or a directory, any Hadoop FileSystem path) in the format set. */
    public DataFrame load(String path, String... morePaths) {
        if (format == null) {
            throw new SluiceException("no format: call format(\"csv\"|\"parquet\"|\"json\") before load, or"
                    + " use csv(path) / parquet(path) / json(path)");
        }
        return load(format, location(path, morePaths));
    }

    /** CSV files (by default with a header line): files, directories or globs, any Hadoop FileSystem path. */
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

    /**
     * JSON lines files (one object per line): a file or a directory, any Hadoop FileSystem path.
     * Without a schema, the columns are inferred from the first records with Spark's rules; the
     * option {@code mode} ({@code FAILFAST}, the default, {@code PERMISSIVE} or
     * {@code DROPMALFORMED}) says what a malformed line does.
     */
    public DataFrame json(String path, String... morePaths) {
        return load(FileFormat.JSON, location(path, morePaths));
    }

    private DataFrame load(FileFormat read, String path) {
        requireNonNull(path, "path is null");
        session.engine().checkReadable(path);
        HadoopOptions split = HadoopOptions.of(options);
        TableSource source = HadoopConfiguration.withSourceOverrides(split.hadoop(), () -> schema == null
                ? FileFormats.register(path, read, path, split.format())
                : FileFormats.register(path, read, path, split.format(), schema));
        return new DataFrame(session, new TableScan(source.withHadoop(split.hadoop())));
    }
}
