package io.sluice.datasource.parquet;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.common.types.Schema;
import io.sluice.datasource.file.ColumnStats;
import io.sluice.datasource.file.SourceFile;
import io.sluice.logical.stats.ColumnStatistics;
import io.sluice.logical.stats.Estimate;
import io.sluice.logical.stats.Statistics;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.schema.MessageType;

/**
 * Table statistics from Parquet footers alone: the exact row count; per column the NULL count (exact
 * when every row group has it), min and max over all row groups (exact for numbers, inexact for
 * strings, which writers may truncate), the average width in memory (strings from their
 * uncompressed size), and a distinct count: for an integer column the size of its range, capped by
 * its non-NULL rows (two for a boolean); for a string column whose chunks are all dictionary-encoded,
 * from the dictionaries' sizes ({@link #fromDictionaries}); absent otherwise.
 */
public final class ParquetTableStatistics {
    private ParquetTableStatistics() {
    }

    /** Per-column running totals over row groups. */
    private static final class Column {
        final boolean string;
        long nulls;
        boolean nullsKnown = true;
        Object min;
        Object max;
        boolean rangeKnown = true;
        long bytes;
        boolean dictionariesKnown;
        long dictionarySum;
        long dictionaryMax;
        long dictionaryRows;
        int dictionaryChunks;
        final List<String[]> chunkRanges = new ArrayList<>(); // [min, max] of each chunk with a dictionary

        Column(boolean string) {
            this.string = string;
            this.dictionariesKnown = string;
        }
    }

    /** The statistics of {@code files}, read from all their footers. */
    public static Statistics of(List<SourceFile> files, Schema schema) {
        long rows = 0;
        Map<String, Column> columns = new HashMap<>();
        for (Field f : schema.fields()) {
            columns.put(f.name().toLowerCase(java.util.Locale.ROOT), new Column(f.type().kind() == DataType.Kind.UTF8));
        }
        for (SourceFile listed : files) {
            Path file = new Path(listed.path());
            try (ParquetFileReader reader = ParquetFile.open(file, listed.length(), listed.modificationTime());
                    DictionarySizes dictionaries = new DictionarySizes(file, listed.length(), listed.modificationTime())) {
                MessageType fileSchema = reader.getFileMetaData().getSchema();
                for (BlockMetaData rowGroup : reader.getRowGroups()) {
                    if (rowGroup.getRowCount() == 0) {
                        continue;
                    }
                    rows += rowGroup.getRowCount();
                    add(columns, rowGroup, fileSchema, file.toString(), dictionaries);
                }
            } catch (IOException e) {
                throw new SluiceException("cannot read Parquet file " + file + ": " + e.getMessage(), e);
            }
        }
        List<ColumnStatistics> out = new ArrayList<>(schema.size());
        for (Field f : schema.fields()) {
            out.add(column(columns.get(f.name().toLowerCase(java.util.Locale.ROOT)), f.type(), rows));
        }
        return Statistics.of(Estimate.exact(rows), out);
    }

    private static void add(Map<String, Column> columns, BlockMetaData rowGroup, MessageType fileSchema, String file,
            DictionarySizes dictionaries) {
        Map<String, ColumnStats> stats = new HashMap<>();
        for (ColumnStats s : ParquetStatistics.of(rowGroup, fileSchema, file)) {
            stats.put(s.column().toLowerCase(java.util.Locale.ROOT), s);
        }
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (ColumnChunkMetaData chunk : rowGroup.getColumns()) {
            String[] path = chunk.getPath().toArray();
            if (path.length != 1) {
                continue;
            }
            String name = path[0].toLowerCase(java.util.Locale.ROOT);
            Column column = columns.get(name);
            if (column == null) {
                continue;
            }
            seen.add(name);
            column.bytes += chunk.getTotalUncompressedSize();
            ColumnStats s = stats.get(name);
            if (s == null || s.nullCount() < 0) {
                column.nullsKnown = false;
            } else {
                column.nulls += s.nullCount();
            }
            if (s == null) {
                column.rangeKnown = false;
            } else if (s.min() != null) {
                column.min = column.min == null ? s.min() : ParquetStatistics.least(column.min, s.min());
                column.max = column.max == null ? s.max() : ParquetStatistics.greatest(column.max, s.max());
            }
            if (column.dictionariesKnown) {
                java.util.OptionalLong size = s == null || s.nullCount() < 0 ? java.util.OptionalLong.empty()
                        : dictionaries.of(chunk);
                if (size.isPresent()) {
                    column.dictionarySum += size.getAsLong();
                    column.dictionaryMax = Math.max(column.dictionaryMax, size.getAsLong());
                    column.dictionaryChunks++;
                    column.dictionaryRows += rowGroup.getRowCount() - s.nullCount();
                    if (s.min() instanceof String lo && s.max() instanceof String hi) {
                        column.chunkRanges.add(new String[] {lo, hi});
                    }
                } else {
                    column.dictionariesKnown = false;
                }
            }
        }
        columns.forEach((name, column) -> {
            if (!seen.contains(name)) {
                column.nullsKnown = false;
                column.rangeKnown = false;
                column.dictionariesKnown = false;
            }
        });
    }

    private static ColumnStatistics column(Column c, DataType type, long rows) {
        Estimate nulls = c.nullsKnown ? Estimate.exact(c.nulls) : Estimate.ABSENT;
        boolean range = c.rangeKnown && c.min != null;
        double nonNull = rows - (c.nullsKnown ? c.nulls : 0);
        Estimate distinct = Estimate.ABSENT;
        if (c.nullsKnown && c.nulls == rows) {
            distinct = Estimate.exact(0);
        } else if (range && c.min instanceof Long lo && c.max instanceof Long hi) {
            distinct = Estimate.inexact(Math.max(1, Math.min(nonNull, (double) hi - lo + 1)));
        } else if (range && c.min instanceof Boolean lo && c.max instanceof Boolean hi) {
            distinct = Estimate.inexact(lo.equals(hi) ? 1 : 2);
        } else if (c.dictionariesKnown && c.dictionaryRows > 0) {
            distinct = Estimate.inexact(Math.max(1, Math.min(nonNull, fromDictionaries(c))));
        }
        // In memory a fixed-width value takes its full width however well the file encodes it; a
        // string takes its encoded bytes (with the length prefix) plus an offset.
        double encoded = rows > 0 ? (double) c.bytes / rows : 0;
        double width = type.kind() == DataType.Kind.UTF8 && encoded > 0 ? encoded + 4
                : ColumnStatistics.nominalWidth(type);
        Estimate.Precision precision = !range ? Estimate.Precision.ABSENT
                : c.min instanceof String ? Estimate.Precision.INEXACT : Estimate.Precision.EXACT;
        return new ColumnStatistics(distinct, nulls, range ? c.min : null, range ? c.max : null, precision, width);
    }

    /**
     * Distinct values of a column from its chunks' dictionary sizes: between the largest dictionary
     * (every chunk draws from one domain) and their sum (no value is in two chunks). The sum when
     * the chunks' value ranges are disjoint (data sorted or clustered by the column: a value is in
     * one chunk, or in two neighbours at their boundary). Otherwise which end applies is read from how unique values are within a chunk:
     * dictionaries far smaller than their chunks mean values repeat, and repeating domains are
     * mostly shared across chunks (a status flag, a segment name); dictionaries as large as their
     * chunks mean near-unique values (names, comments), which rarely recur in another chunk.
     */
    private static double fromDictionaries(Column c) {
        if (c.chunkRanges.size() == c.dictionaryChunks && disjoint(c.chunkRanges)) {
            return c.dictionarySum;
        }
        double uniqueness = Math.min(1, (double) c.dictionarySum / c.dictionaryRows);
        return c.dictionaryMax + (c.dictionarySum - c.dictionaryMax) * uniqueness;
    }

    /**
     * Whether no two of the [min, max] ranges overlap but at their ends: sorted data cut into row
     * groups shares a boundary value between neighbours (counted twice in the sum, once per chunk).
     */
    private static boolean disjoint(List<String[]> ranges) {
        List<String[]> sorted = new ArrayList<>(ranges);
        sorted.sort((a, b) -> a[0].compareTo(b[0]));
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i)[0].compareTo(sorted.get(i - 1)[1]) < 0) {
                return false;
            }
        }
        return true;
    }
}
