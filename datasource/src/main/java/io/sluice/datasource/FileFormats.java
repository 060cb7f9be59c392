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
import io.sluice.datasource.parquet.ParquetFormat;
import io.sluice.logical.source.FileFormat;
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
        return source.format() + ":" + listing.fingerprint(source.location());
    }

    /** The stateless, thread-safe reader of a format. */
    public static FormatReader reader(FileFormat format) {
        requireNonNull(format, "format is null");
        return switch (format) {
            case CSV -> CSV;
            case PARQUET -> PARQUET;
        };
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
        String key;
        FileListing listing;
        try {
            listing = SourceFiles.listing(source.location());
            key = statisticsKey(source, listing);
        } catch (SluiceException e) {
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
        requireNonNull(name, "name is null");
        requireNonNull(location, "location is null");
        FileListing listing = SourceFiles.listing(location);
        if (listing.files().isEmpty()) {
            throw new SluiceException("no data files in directory " + location);
        }
        Schema fileSchema = reader(format).inferSchema(listing.files().get(0).path());
        List<Field> partitionFields = PartitionColumns.infer(listing);
        if (partitionFields.isEmpty()) {
            return new TableSource(name, format, location, fileSchema);
        }
        List<Field> fields = new ArrayList<>();
        for (Field f : fileSchema.fields()) {
            if (!PartitionColumns.contains(listing.partitionKeys(), f.name())) {
                fields.add(f);
            }
        }
        fields.addAll(partitionFields);
        return new TableSource(name, format, location, new Schema(fields), listing.partitionKeys());
    }
}
