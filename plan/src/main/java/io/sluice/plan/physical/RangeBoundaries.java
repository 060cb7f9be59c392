package io.sluice.plan.physical;

import io.sluice.plan.exec.Batch;
import io.sluice.plan.exec.Col;
import io.sluice.plan.exec.KeyOrder;
import io.sluice.plan.expr.SortKey;
import io.sluice.plan.types.DataType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Split points for a range partitioning, from samples of the key columns (see
 * {@link SplitPoints}), and the conversions between boundary rows and typed columns.
 *
 * <p>{@link #compute} sorts the samples under the sort keys and walks them from the start, cutting
 * a partition of about {@code remaining samples / remaining partitions} each time. A cut never
 * falls inside a run of equal keys, since equal keys must share a partition; when the target cut
 * lands in such a run, the cut goes before the run or after it, whichever leaves the partition
 * closer to its target size. So a heavy key gets a partition of its own (or shares one with few
 * others), the partitions around it stay balanced, and boundaries are strictly increasing. With
 * fewer distinct keys than partitions there are fewer boundaries, and the last partitions stay
 * empty; the partition count itself is unchanged.
 */
public final class RangeBoundaries {
    private RangeBoundaries() {
    }

    /**
     * The boundaries (at most {@code partitionCount - 1}) for samples given as key columns in the
     * order of {@code keys}; each element of {@code samples} is one piece (say, one partition's
     * sample). Pure: the same samples give the same boundaries.
     */
    public static List<List<Object>> compute(List<Col[]> samples, List<SortKey> keys, int partitionCount) {
        if (partitionCount < 1) {
            throw new IllegalArgumentException("partition count must be positive: " + partitionCount);
        }
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("range boundaries need a key");
        }
        Col[] all = concat(samples, keys.size());
        int total = all[0] == null ? 0 : all[0].length;
        List<List<Object>> boundaries = new ArrayList<>();
        if (total == 0 || partitionCount == 1) {
            return boundaries;
        }
        KeyOrder order = new KeyOrder(keys);
        int[] sorted = order.sortedIndexes(all, total);
        int start = 0;
        for (int remaining = partitionCount; remaining > 1 && start < total; remaining--) {
            int target = (total - start + remaining - 1) / remaining; // this partition's fair share
            int pos = start + target - 1;
            int runStart = pos;
            while (runStart > start && order.compare(all, sorted[runStart - 1], all, sorted[pos]) == 0) {
                runStart--;
            }
            int runEnd = pos + 1;
            while (runEnd < total && order.compare(all, sorted[runEnd], all, sorted[pos]) == 0) {
                runEnd++;
            }
            // Cut before the run of equal keys when that is possible and closer to the target.
            int cut = runStart > start && target - (runStart - start) < runEnd - start - target ? runStart : runEnd;
            if (cut == total) {
                break;
            }
            boundaries.add(row(all, sorted[cut - 1]));
            start = cut;
        }
        return boundaries;
    }

    /** The same from sample batches whose first columns are the keys (as {@code SampleExec} emits); batches stay the caller's. */
    public static List<List<Object>> computeFromBatches(List<Batch> samples, List<SortKey> keys, int partitionCount) {
        List<Col[]> pieces = new ArrayList<>(samples.size());
        for (Batch b : samples) {
            Col[] cols = new Col[keys.size()];
            for (int k = 0; k < cols.length; k++) {
                cols[k] = b.column(k);
            }
            pieces.add(cols);
        }
        return compute(pieces, keys, partitionCount);
    }

    private static Col[] concat(List<Col[]> samples, int width) {
        Col[] out = new Col[width];
        for (int k = 0; k < width; k++) {
            List<Col> parts = new ArrayList<>();
            for (Col[] piece : samples) {
                if (piece.length != width) {
                    throw new IllegalArgumentException("a sample has " + piece.length + " key columns, expected " + width);
                }
                if (piece[k].length > 0) {
                    parts.add(piece[k]);
                }
            }
            out[k] = parts.isEmpty() ? null : Col.concat(parts.get(0).type, parts);
        }
        return out;
    }

    /** One row of key columns as engine values: Long, Double (never -0.0), String, Boolean, or null. */
    public static List<Object> row(Col[] columns, int row) {
        Object[] out = new Object[columns.length];
        for (int k = 0; k < columns.length; k++) {
            Col c = columns[k];
            if (c.isNull(row)) {
                continue;
            }
            out[k] = switch (c.type.kind()) {
                case NULL -> null;
                case BOOL -> c.bools[row];
                case FLOAT64 -> c.doubles[row] == 0.0 ? 0.0 : c.doubles[row]; // -0.0 is 0.0 as a key
                case UTF8 -> c.strings[row];
                default -> c.longs[row];
            };
        }
        return Arrays.asList(out);
    }

    /**
     * Boundary rows as one typed column per key, for comparing against rows of those types. A
     * value that is not held as the key's type holds it (say, a Double for an INT64 key) is a
     * planning bug and fails naming the key.
     */
    public static Col[] toColumns(List<List<Object>> boundaries, DataType[] types) {
        int m = boundaries.size();
        Col[] out = new Col[types.length];
        for (int k = 0; k < types.length; k++) {
            DataType type = types[k];
            Col col = Col.allocate(type, m, true);
            for (int i = 0; i < m; i++) {
                Object v = boundaries.get(i).get(k);
                if (v == null || type.kind() == DataType.Kind.NULL) {
                    col.nulls[i] = true;
                    continue;
                }
                boolean ok = switch (type.kind()) {
                    case BOOL -> v instanceof Boolean;
                    case FLOAT64 -> v instanceof Double;
                    case UTF8 -> v instanceof String;
                    default -> v instanceof Long;
                };
                if (!ok) {
                    throw new IllegalArgumentException("boundary value " + v + " (" + v.getClass().getSimpleName()
                            + ") of key " + k + " is not held as " + type);
                }
                switch (type.kind()) {
                    case BOOL -> col.bools[i] = (Boolean) v;
                    case FLOAT64 -> col.doubles[i] = (Double) v;
                    case UTF8 -> col.strings[i] = (String) v;
                    default -> col.longs[i] = (Long) v;
                }
            }
            out[k] = col;
        }
        return out;
    }
}
