package io.sluice.datasource.parquet;

import io.sluice.common.SluiceException;
import io.sluice.datasource.file.ColumnStats;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;

/**
 * Row-group column statistics from a Parquet footer, converted to engine values. Columns whose
 * type or statistics we cannot read faithfully (unsigned integers, whose writers may order them
 * as signed) are left out, which only means they never prune.
 */
final class ParquetStatistics {
    private ParquetStatistics() {
    }

    static List<ColumnStats> of(BlockMetaData rowGroup, MessageType schema, String file) {
        List<ColumnStats> out = new ArrayList<>();
        for (ColumnChunkMetaData chunk : rowGroup.getColumns()) {
            String[] path = chunk.getPath().toArray();
            if (path.length != 1 || !schema.containsField(path[0])) {
                continue;
            }
            ParquetColumnType type;
            try {
                type = ParquetColumnType.of(schema.getType(path[0]), file);
            } catch (SluiceException e) {
                continue;
            }
            Statistics<?> stats = chunk.getStatistics();
            if (stats == null || stats.isEmpty() || type.decoding() == ParquetColumnType.Decoding.UINT32) {
                continue;
            }
            long nulls = stats.isNumNullsSet() ? stats.getNumNulls() : -1;
            Object min = null;
            Object max = null;
            if (stats.hasNonNullValue()) {
                min = convert(stats.genericGetMin(), type);
                max = convert(stats.genericGetMax(), type);
                if (min == null || max == null) {
                    continue;
                }
            }
            out.add(new ColumnStats(path[0], min, max, nulls));
        }
        return out;
    }

    private static Object convert(Object value, ParquetColumnType type) {
        return switch (type.decoding()) {
            case INT32, INT64 -> value instanceof Number n ? n.longValue() : null;
            case FLOAT, DOUBLE -> value instanceof Number n ? n.doubleValue() : null;
            case BOOLEAN -> value instanceof Boolean b ? b : null;
            case STRING -> value instanceof Binary b ? b.toStringUsingUTF8() : null;
            case DECIMAL_BYTES -> value instanceof Binary b ? unscaled(b) : null;
            default -> null;
        };
    }

    private static Long unscaled(Binary b) {
        BigInteger v = new BigInteger(b.getBytes());
        return v.bitLength() < 64 ? v.longValue() : null;
    }

    /**
     * The statistics of several row groups read as one partition: per column the least min, the
     * greatest max and the summed NULL count; a row group of only NULLs (a null min) adds no range;
     * a column unknown in any row group, or whose values do not compare, is left out.
     */
    static List<ColumnStats> merge(List<List<ColumnStats>> rowGroups) {
        Map<String, ColumnStats> merged = new LinkedHashMap<>();
        for (ColumnStats s : rowGroups.get(0)) {
            merged.put(s.column(), s);
        }
        for (List<ColumnStats> next : rowGroups.subList(1, rowGroups.size())) {
            Map<String, ColumnStats> kept = new LinkedHashMap<>();
            for (ColumnStats s : next) {
                ColumnStats m = merged.get(s.column());
                if (m == null) {
                    continue;
                }
                long nulls = m.nullCount() < 0 || s.nullCount() < 0 ? -1 : m.nullCount() + s.nullCount();
                // a null min is a row group of only NULLs (the pruner skips it): it adds no range
                if (m.min() == null || s.min() == null) {
                    ColumnStats ranged = m.min() == null ? s : m;
                    kept.put(s.column(), new ColumnStats(s.column(), ranged.min(), ranged.max(), nulls));
                } else if (m.min().getClass() == s.min().getClass()) {
                    kept.put(s.column(), new ColumnStats(s.column(), least(m.min(), s.min()), greatest(m.max(), s.max()),
                            nulls));
                } // values that do not compare: the column is left out, its range unknown
            }
            merged = kept;
        }
        return List.copyOf(merged.values());
    }

    /** The lesser of two values of one class, else {@code b}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static Object least(Object a, Object b) {
        return a.getClass() == b.getClass() && ((Comparable) a).compareTo(b) <= 0 ? a : b;
    }

    /** The greater of two values of one class, else {@code b}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static Object greatest(Object a, Object b) {
        return a.getClass() == b.getClass() && ((Comparable) a).compareTo(b) >= 0 ? a : b;
    }
}
