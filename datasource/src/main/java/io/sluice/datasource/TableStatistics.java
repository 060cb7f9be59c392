package io.sluice.datasource;

import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.datasource.csv.CsvOptions;
import io.sluice.datasource.csv.CsvTableStatistics;
import io.sluice.datasource.file.ColumnStats;
import io.sluice.datasource.file.FileListing;
import io.sluice.datasource.file.PartitionColumns;
import io.sluice.datasource.file.SourceFile;
import io.sluice.datasource.json.JsonTableStatistics;
import io.sluice.datasource.parquet.ParquetTableStatistics;
import io.sluice.logical.source.TableSource;
import io.sluice.logical.stats.ColumnStatistics;
import io.sluice.logical.stats.Estimate;
import io.sluice.logical.stats.Statistics;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A table's statistics from its files' metadata. The file columns come from the formats' own
 * statistics ({@link ParquetTableStatistics}, {@link CsvTableStatistics}) over every file when there
 * are at most {@value #ALL_FILES}, else over {@value #SAMPLED_FILES} files spread over the listing,
 * with the row count scaled by bytes (inexact) and nothing else known: planning a query over
 * thousands of files must not read thousands of footers. Partition columns come from the
 * directories: their distinct values and range, exactly.
 */
final class TableStatistics {
    static final int ALL_FILES = 64;
    static final int SAMPLED_FILES = 16;

    private TableStatistics() {
    }

    static Statistics of(TableSource source, FileListing listing) {
        List<Field> fileFields = new ArrayList<>();
        for (Field f : source.schema().fields()) {
            if (!PartitionColumns.contains(source.partitionColumns(), f.name())) {
                fileFields.add(f);
            }
        }
        Schema fileSchema = new Schema(fileFields);
        List<SourceFile> files = listing.files();
        Statistics fileStats;
        if (files.size() <= ALL_FILES) {
            fileStats = of(source, files, listing.totalBytes(), fileSchema);
        } else {
            List<SourceFile> sample = new ArrayList<>(SAMPLED_FILES);
            long sampleBytes = 0;
            for (int i = 0; i < SAMPLED_FILES; i++) {
                SourceFile f = files.get((int) ((long) i * files.size() / SAMPLED_FILES));
                sample.add(f);
                sampleBytes += f.length();
            }
            Statistics sampled = of(source, sample, sampleBytes, fileSchema);
            double rows = sampleBytes == 0 ? 0 : Math.ceil(sampled.rowCount() * ((double) listing.totalBytes() / sampleBytes));
            List<ColumnStatistics> columns = new ArrayList<>();
            for (ColumnStatistics c : sampled.columns()) {
                columns.add(ColumnStatistics.unknown(c.averageWidth()));
            }
            fileStats = Statistics.of(Estimate.inexact(rows), columns);
        }
        if (!source.isPartitioned()) {
            return fileStats;
        }
        List<Field> partitionFields = PartitionColumns.fields(source.schema(), listing.partitionKeys());
        List<ColumnStatistics> columns = new ArrayList<>();
        int fileColumn = 0;
        for (Field f : source.schema().fields()) {
            if (PartitionColumns.contains(source.partitionColumns(), f.name())) {
                int k = indexOf(listing.partitionKeys(), f.name());
                columns.add(k < 0 ? ColumnStatistics.unknown(ColumnStatistics.nominalWidth(f.type()))
                        : partitionColumn(listing, partitionFields, k)); // no files, no directories: nothing known
            } else {
                columns.add(fileStats.column(fileColumn++));
            }
        }
        return Statistics.of(fileStats.rows(), columns);
    }

    private static Statistics of(TableSource source, List<SourceFile> files, long bytes, Schema fileSchema) {
        return switch (source.format()) {
            case CSV -> CsvTableStatistics.of(files, bytes, fileSchema, CsvOptions.of(source.options()));
            case PARQUET -> ParquetTableStatistics.of(files, fileSchema);
            case JSON -> JsonTableStatistics.of(files, bytes, fileSchema);
        };
    }

    /** The distinct values and range of partition column {@code k}; its NULLs are not counted (rows per directory are unknown). */
    private static ColumnStatistics partitionColumn(FileListing listing, List<Field> fields, int k) {
        Set<Object> distinct = new HashSet<>();
        Comparable<Object> min = null;
        Comparable<Object> max = null;
        for (SourceFile file : listing.files()) {
            ColumnStats value = PartitionColumns.stats(file, fields).get(k);
            if (value.min() == null || !distinct.add(value.min())) {
                continue;
            }
            @SuppressWarnings("unchecked")
            Comparable<Object> v = (Comparable<Object>) value.min();
            min = min == null || v.compareTo(min) < 0 ? v : min;
            max = max == null || v.compareTo(max) > 0 ? v : max;
        }
        double width = ColumnStatistics.nominalWidth(fields.get(k).type());
        return new ColumnStatistics(Estimate.exact(distinct.size()), Estimate.ABSENT, min, max,
                min == null ? Estimate.Precision.ABSENT : Estimate.Precision.EXACT, width);
    }

    private static int indexOf(List<String> keys, String name) {
        for (int i = 0; i < keys.size(); i++) {
            if (keys.get(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }
}
