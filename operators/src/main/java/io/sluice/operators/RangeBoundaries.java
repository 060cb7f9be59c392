package io.sluice.operators;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.Kernels;
import io.sluice.logical.expr.SortKey;
import java.math.BigDecimal;
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
     * sample), every sample row weighing 1. Pure: the same samples give the same boundaries.
     */
    public static List<List<Object>> compute(List<Col[]> samples, List<SortKey> keys, int partitionCount) {
        return compute(samples, null, keys, partitionCount);
    }

    /**
     * The same with a weight per sample row ({@code weights.get(i)[r]} for row {@code r} of piece
     * {@code i}; null: all 1): the number of input rows the sample row stands for. A piece sampled
     * from a partition of ten times the rows weighs ten times as much per row, so the cuts balance
     * input rows, not sample rows.
     */
    public static List<List<Object>> compute(List<Col[]> samples, List<double[]> weights, List<SortKey> keys,
            int partitionCount) {
        if (partitionCount < 1) {
            throw new IllegalArgumentException("partition count must be positive: " + partitionCount);
        }
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("range boundaries need a key");
        }
        if (weights != null && weights.size() != samples.size()) {
            throw new IllegalArgumentException(weights.size() + " weight arrays for " + samples.size() + " samples");
        }
        Col[] all = concat(samples, keys.size());
        int total = all[0] == null ? 0 : all[0].length;
        List<List<Object>> boundaries = new ArrayList<>();
        if (total == 0 || partitionCount == 1) {
            return boundaries;
        }
        KeyOrder order = new KeyOrder(keys);
        int[] sorted = order.sortedIndexes(all, total);
        double[] weight = concatWeights(samples, weights, total);
        double[] prefix = new double[total + 1]; // prefix[i]: weight of sorted rows [0, i)
        for (int i = 0; i < total; i++) {
            prefix[i + 1] = prefix[i] + weight[sorted[i]];
        }
        int start = 0;
        for (int remaining = partitionCount; remaining > 1 && start < total; remaining--) {
            double target = (prefix[total] - prefix[start]) / remaining; // this partition's fair share
            int pos = start;
            while (pos < total - 1 && prefix[pos + 1] - prefix[start] < target) {
                pos++;
            }
            int runStart = pos;
            while (runStart > start && order.compare(all, sorted[runStart - 1], all, sorted[pos]) == 0) {
                runStart--;
            }
            int runEnd = pos + 1;
            while (runEnd < total && order.compare(all, sorted[runEnd], all, sorted[pos]) == 0) {
                runEnd++;
            }
            // Cut before the run of equal keys when that is possible and closer to the target.
            double before = prefix[runStart] - prefix[start];
            double after = prefix[runEnd] - prefix[start];
            int cut = runStart > start && target - before < after - target ? runStart : runEnd;
            if (cut == total) {
                break;
            }
            boundaries.add(row(all, sorted[cut - 1]));
            start = cut;
        }
        return boundaries;
    }

    /**
     * The same from sample batches whose first columns are the keys and whose next column, when
     * present, is the weight (as {@code SampleExec} emits); batches stay the caller's.
     */
    public static List<List<Object>> computeFromBatches(List<Batch> samples, List<SortKey> keys, int partitionCount) {
        List<Col[]> pieces = new ArrayList<>(samples.size());
        List<double[]> weights = new ArrayList<>(samples.size());
        for (Batch b : samples) {
            Col[] cols = new Col[keys.size()];
            for (int k = 0; k < cols.length; k++) {
                cols[k] = b.column(k);
            }
            pieces.add(cols);
            double[] w;
            if (b.schema().size() > keys.size()) {
                w = java.util.Arrays.copyOf(b.column(keys.size()).doubles, b.rowCount());
            } else {
                w = new double[b.rowCount()];
                java.util.Arrays.fill(w, 1.0);
            }
            weights.add(w);
        }
        return compute(pieces, weights, keys, partitionCount);
    }

    private static double[] concatWeights(List<Col[]> samples, List<double[]> weights, int total) {
        double[] out = new double[total];
        if (weights == null) {
            Arrays.fill(out, 1.0);
            return out;
        }
        int at = 0;
        for (int i = 0; i < samples.size(); i++) {
            int rows = samples.get(i)[0].length;
            if (weights.get(i).length != rows) {
                throw new IllegalArgumentException("sample " + i + " has " + rows + " rows and " + weights.get(i).length
                        + " weights");
            }
            System.arraycopy(weights.get(i), 0, out, at, rows);
            at += rows;
        }
        return out;
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
            out[k] = parts.isEmpty() ? null : Col.concat(commonScale(parts), rescaled(parts));
        }
        return out;
    }

    /**
     * The type the pieces of one key column are concatenated as: their own, or for decimals of
     * different scales (samples of two inputs split alike) the one with the largest scale, so that
     * unscaled longs compare by value and not by position of the decimal point.
     */
    private static DataType commonScale(List<Col> parts) {
        DataType type = parts.get(0).type;
        for (Col c : parts) {
            if (type.kind() == DataType.Kind.DECIMAL && c.type.kind() == DataType.Kind.DECIMAL
                    && c.type.scale() > type.scale()) {
                type = c.type;
            }
        }
        return type;
    }

    private static List<Col> rescaled(List<Col> parts) {
        DataType target = commonScale(parts);
        if (target.kind() != DataType.Kind.DECIMAL) {
            return parts;
        }
        List<Col> out = new ArrayList<>(parts.size());
        for (Col c : parts) {
            out.add(c.type.scale() == target.scale() ? c : Kernels.cast(c, DataType.decimal(DataType.MAX_DECIMAL_PRECISION, target.scale())).withType(target));
        }
        return out;
    }

    /**
     * One row of key columns as boundary values: Long (integers, dates), BigDecimal (decimals, with
     * their scale, so that a boundary means the same number whatever scale a reader's key has),
     * Double (never -0.0), String, Boolean, or null.
     */
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
                case DECIMAL -> io.sluice.kernels.Int128.toBigDecimal(c.high(row), c.low(row), c.type.scale());
                default -> c.longs[row];
            };
        }
        return Arrays.asList(out);
    }

    /**
     * A decimal boundary as an unscaled long of the key's scale. Split points are computed from
     * keys of one type (join keys are cast to a common type first), so the value always fits; one
     * that would need rounding is a planning bug, and fails naming the key rather than misplacing
     * rows.
     */
    private static long unscaled(BigDecimal v, DataType type, int key) {
        try {
            return v.setScale(type.scale()).unscaledValue().longValueExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("boundary value " + v.toPlainString() + " of key " + key
                    + " is not exactly representable as " + type);
        }
    }

    /** A decimal key of precision 19 to 38: its boundaries as 128-bit values. */
    private static Col wideColumn(List<List<Object>> boundaries, DataType type, int key) {
        int m = boundaries.size();
        Col col = Col.allocateWide(type, m, true);
        for (int i = 0; i < m; i++) {
            Object v = boundaries.get(i).get(key);
            if (v == null) {
                col.nulls[i] = true;
                continue;
            }
            if (!(v instanceof BigDecimal d)) {
                throw new IllegalArgumentException("boundary value " + v + " (" + v.getClass().getSimpleName()
                        + ") of key " + key + " is not held as " + type);
            }
            try {
                java.math.BigInteger u = d.setScale(type.scale()).unscaledValue();
                col.highs[i] = io.sluice.kernels.Int128.high(u);
                col.lows[i] = io.sluice.kernels.Int128.low(u);
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("boundary value " + d.toPlainString() + " of key " + key
                        + " is not exactly representable as " + type);
            }
        }
        return col.compacted();
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
            if (type.isWideDecimal()) {
                out[k] = wideColumn(boundaries, type, k);
                continue;
            }
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
                    case DECIMAL -> v instanceof BigDecimal;
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
                    case DECIMAL -> col.longs[i] = unscaled((BigDecimal) v, type, k);
                    default -> col.longs[i] = (Long) v;
                }
            }
            out[k] = col;
        }
        return out;
    }
}
