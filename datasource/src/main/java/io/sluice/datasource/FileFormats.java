package io.sluice.datasource;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.datasource.csv.CsvFormat;
import io.sluice.datasource.file.FileListing;
import io.sluice.datasource.file.FormatReader;
import io.sluice.datasource.file.HadoopConfiguration;
import io.sluice.datasource.file.PartitionColumns;
import io.sluice.datasource.file.SourceFiles;
import io.sluice.datasource.json.JsonFormat;
import io.sluice.datasource.parquet.ParquetFormat;
import io.sluice.logical.source.FileFormat;
import io.sluice.logical.source.FormatOptions;
import io.sluice.logical.source.TableSource;
import io.sluice.logical.stats.Statistics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Entry point to the file formats: the reader for each {@link FileFormat} and table registration.
 * All file access goes through Hadoop's {@code FileSystem} with one shared configuration ({@link HadoopConfiguration}),
 * so file://, hdfs:// and (once the connector is on the class path) s3a:// all work.
 */
public final class FileFormats {
    private static final FormatReader CSV = new CsvFormat();
    private static final FormatReader PARQUET = new ParquetFormat();
    private static final FormatReader JSON = new JsonFormat();
    private static final int CACHED_STATISTICS = 256;
    /** Table statistics by format and file fingerprint, least recently used dropped first. */
    private static final Map<String, Statistics> STATISTICS = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Statistics> eldest) {
            return size() > CACHED_STATISTICS;
        }
    };

    /**
     * Statistics that {@code ANALYZE TABLE} computed, by format and file fingerprint: they hold while
     * the files stay the same, and take precedence over what the footers say.
     */
    private static final Map<String, Statistics> ANALYZED = new java.util.concurrent.ConcurrentHashMap<>();

    private FileFormats() {
    }

    /**
     * Keeps {@code analyzed} (one column entry per schema column) as the statistics of the table's
     * current files; a change to the files (another fingerprint) makes them stale and unused.
     */
    public static void recordAnalyzed(TableSource source, Statistics analyzed) {
        requireNonNull(analyzed, "analyzed is null");
        if (analyzed.columns().size() != source.schema().size()) {
            throw new IllegalArgumentException("analyzed statistics have " + analyzed.columns().size()
                    + " columns, the table " + source.schema().size());
        }
        ANALYZED.put(statisticsKey(source), analyzed);
    }

    private static String statisticsKey(TableSource source) {
        return statisticsKey(source, SourceFiles.listing(source.location()));
    }

    private static String statisticsKey(TableSource source, FileListing listing) {
        return source.format() + (source.options().isEmpty() ? "" : source.options().toString()) + ":"
                + listing.fingerprint(source.location());
    }

    /** The stateless, thread-safe reader of a format. */
    public static FormatReader reader(FileFormat format) {
        requireNonNull(format, "format is null");
        return switch (format) {
            case CSV -> CSV;
            case PARQUET -> PARQUET;
            case JSON -> JSON;
        };
    }

    /**
     * Refuses write options {@code format} does not know or cannot use, before anything is written:
     * a table written with options is read back with the same ones, so the writer takes the
     * reader's.
     */
    public static void checkWriteOptions(FileFormat format, Map<String, String> options) {
        reader(format).checkOptions(FormatOptions.normalize(options));
    }

    /** Bytes on disk at a location (a file, or a directory's files): the basis of size estimates. */
    public static long totalBytes(String location) {
        return SourceFiles.totalBytes(location);
    }

    /**
     * Statistics of a table from its files' metadata (Parquet footers; CSV size and a sampled row
     * width), cached while the files stay the same. Files that cannot be read give statistics that
     * know nothing: reading them fails later, at the scan, with the error that names them.
     */
    public static Statistics statistics(TableSource source) {
        requireNonNull(source, "source is null");
        return HadoopConfiguration.withSourceOverrides(source.hadoop(), () -> statisticsOfFiles(source));
    }

    private static Statistics statisticsOfFiles(TableSource source) {
        String key;
        FileListing listing;
        try {
            listing = SourceFiles.listing(source.location());
            key = statisticsKey(source, listing);
        } catch (SluiceException e) {
            // an estimate only: the scan itself reports the unreadable location
            return Statistics.unknown(source.schema(), Statistics.DEFAULT_ROWS);
        }
        Statistics analyzed = ANALYZED.get(key);
        if (analyzed != null && analyzed.columns().size() == source.schema().size()) {
            return analyzed;
        }
        synchronized (STATISTICS) {
            Statistics known = STATISTICS.get(key);
            if (known != null && known.columns().size() == source.schema().size()) {
                return known;
            }
        }
        Statistics computed;
        try {
            computed = TableStatistics.of(source, listing);
        } catch (SluiceException e) {
            // an estimate only: the scan itself reports the unreadable file
            return Statistics.unknown(source.schema(), Statistics.DEFAULT_ROWS);
        }
        synchronized (STATISTICS) {
            STATISTICS.put(key, computed);
        }
        return computed;
    }

    /**
     * A table named {@code name} over the files at {@code location}, with the schema read now from
     * its first file, followed by the partition columns its {@code key=value} directories name
     * (typed from their values, see {@link PartitionColumns}); a file column of a partition column's
     * name is left out, its values come from the directories.
     */
    public static TableSource register(String name, FileFormat format, String location) {
        return register(name, format, location, Map.of());
    }

    /**
     * A table named {@code name} over the files at {@code location}, read with {@code options}
     * (refused first if its format does not know them), with the schema read from the files now.
     */
    public static TableSource register(String name, FileFormat format, String location, Map<String, String> options) {
        requireNonNull(name, "name is null");
        requireNonNull(location, "location is null");
        Map<String, String> normal = FormatOptions.normalize(options);
        FormatReader reader = reader(format);
        reader.checkOptions(normal);
        FileListing listing = SourceFiles.listing(location);
        if (listing.files().isEmpty()) {
            throw new SluiceException("no data files in directory " + location);
        }
        // JSON has no schema in its files: its inference samples records across all of them, as Spark's
        Schema fileSchema = reader.inferSchema(format == FileFormat.JSON ? location : listing.files().get(0).path(), normal);
        List<Field> partitionFields = PartitionColumns.infer(listing);
        if (partitionFields.isEmpty()) {
            return new TableSource(name, format, location, fileSchema, normal);
        }
        List<Field> fields = new ArrayList<>();
        for (Field f : fileSchema.fields()) {
            if (!PartitionColumns.contains(listing.partitionKeys(), f.name())) {
                fields.add(f);
            }
        }
        fields.addAll(partitionFields);
        return new TableSource(name, format, location, new Schema(fields), normal, listing.partitionKeys());
    }

    /**
     * A table over the files at {@code location} with the columns {@code declared} names (as in
     * {@code CREATE EXTERNAL TABLE t (a INT, …)} or {@code .schema("a INT, …")}). CSV columns are
     * matched by position and the declared names stand over a header's ({@code enforceSchema}
     * defaults to true); JSON fields and Parquet columns are matched by name, and each Parquet
     * column must be in the files with the declared type. The location must exist now. A declared
     * column named by the {@code key=value} directories is a partition column of the declared type;
     * partition keys not declared follow with inferred types; partition columns go last, as in Spark.
     */
    public static TableSource register(String name, FileFormat format, String location, Map<String, String> options,
            Schema declared) {
        requireNonNull(name, "name is null");
        requireNonNull(declared, "declared is null");
        Map<String, String> normal = new java.util.TreeMap<>(FormatOptions.normalize(options));
        FormatReader reader = reader(format);
        reader.checkOptions(normal);
        FileListing listing = SourceFiles.listing(location);
        List<String> keys = listing.partitionKeys();
        List<Field> fileFields = new ArrayList<>();
        for (Field f : declared.fields()) {
            if (!PartitionColumns.contains(keys, f.name())) {
                fileFields.add(f);
            }
        }
        Schema fileSchema = new Schema(fileFields);
        switch (format) {
            case CSV -> normal.putIfAbsent("enforceschema", "true");
            case JSON -> { }
            case PARQUET -> {
                if (!listing.files().isEmpty()) {
                    checkDeclared(name, location, fileSchema, reader.inferSchema(listing.files().get(0).path(), normal));
                }
            }
        }
        if (keys.isEmpty()) {
            return new TableSource(name, format, location, declared, normal);
        }
        List<Field> fields = new ArrayList<>(fileFields);
        for (Field inferred : PartitionColumns.infer(listing)) {
            Field given = declared.fields().stream().filter(f -> f.name().equalsIgnoreCase(inferred.name())).findFirst()
                    .orElse(inferred);
            fields.add(PartitionColumns.checkType(given, location));
        }
        return new TableSource(name, format, location, new Schema(fields), normal, keys);
    }

    private static void checkDeclared(String table, String location, Schema declared, Schema found) {
        for (Field field : declared.fields()) {
            Field inFile = found.fields().stream()
                    .filter(f -> f.name().equalsIgnoreCase(field.name())).findFirst()
                    .orElseThrow(() -> new SluiceException("table " + table + ": column '" + field.name()
                            + "' is not in the files at " + location + " (they have " + found.names() + ")"));
            if (!inFile.type().equals(field.type())) {
                throw new SluiceException("table " + table + ": column '" + field.name() + "' is declared " + field.type()
                        + " but the files at " + location + " hold " + inFile.type());
            }
        }
    }
}
