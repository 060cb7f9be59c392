package io.sluice.datasource.parquet;

import io.sluice.common.SluiceException;
import io.sluice.datasource.file.ColumnStats;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
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
}
