package io.sluice.plan.source;

import io.sluice.plan.SluiceException;
import io.sluice.plan.stats.ColumnStatistics;
import io.sluice.plan.stats.Estimate;
import io.sluice.plan.stats.Statistics;
import io.sluice.plan.types.DataType;
import io.sluice.plan.types.Field;
import io.sluice.plan.types.Schema;
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
 * uncompressed size), and a distinct count
 * estimated as the size of an integer column's range, capped by its non-NULL rows (two for a
 * boolean; absent otherwise).
 */
final class ParquetTableStatistics {
    private ParquetTableStatistics() {
    }

    /** Per-column running totals over row groups. */
    private static final class Column {
        long nulls;
        boolean nullsKnown = true;
        Object min;
        Object max;
        boolean rangeKnown = true;
        long bytes;
    }

    static Statistics of(String location, Schema schema) {
        long rows = 0;
        Map<String, Column> columns = new HashMap<>();
        for (Field f : schema.fields()) {
            columns.put(f.name().toLowerCase(java.util.Locale.ROOT), new Column());
        }
        for (Path file : SourceFiles.list(location)) {
            try (ParquetFileReader reader = ParquetFile.open(file)) {
                MessageType fileSchema = reader.getFileMetaData().getSchema();
                for (BlockMetaData rowGroup : reader.getRowGroups()) {
                    if (rowGroup.getRowCount() == 0) {
                        continue;
                    }
                    rows += rowGroup.getRowCount();
                    add(columns, rowGroup, fileSchema, file.toString());
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

    private static void add(Map<String, Column> columns, BlockMetaData rowGroup, MessageType fileSchema, String file) {
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
                column.min = column.min == null ? s.min() : least(column.min, s.min());
                column.max = column.max == null ? s.max() : greatest(column.max, s.max());
            }
        }
        columns.forEach((name, column) -> {
            if (!seen.contains(name)) {
                column.nullsKnown = false;
                column.rangeKnown = false;
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

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object least(Object a, Object b) {
        return a.getClass() == b.getClass() && ((Comparable) a).compareTo(b) <= 0 ? a : b;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object greatest(Object a, Object b) {
        return a.getClass() == b.getClass() && ((Comparable) a).compareTo(b) >= 0 ? a : b;
    }
}
