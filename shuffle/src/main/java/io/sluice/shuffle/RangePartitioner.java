package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.exec.Batch;
import io.sluice.plan.exec.Col;
import io.sluice.plan.exec.KeyOrder;
import io.sluice.plan.expr.SortKey;
import io.sluice.plan.physical.Partitioning;
import io.sluice.plan.physical.RangeBoundaries;
import io.sluice.plan.types.DataType;
import io.sluice.plan.types.Schema;
import java.util.List;

/**
 * Assigns each row of a batch to a range partition: the number of boundaries that sort strictly
 * before the row's key tuple under the partitioning's sort keys ({@link KeyOrder}: directions,
 * NULL placement, {@code -0.0 == 0.0}). So rows equal to a boundary go to that boundary's
 * partition, equal keys always share a partition, and every key in partition {@code i} sorts
 * before or equal to every key in partition {@code i + 1}. With the usual ascending NULLS LAST
 * keys, NULL keys land in the last non-empty partition.
 *
 * <p>Keys are evaluated once per batch; each row then binary-searches the boundaries. A single
 * long-backed key (integers, dates, decimals) without NULL boundaries takes a loop over primitive
 * arrays with no per-comparison dispatch.
 */
public final class RangePartitioner {
    private final List<SortKey> keys;
    private final KeyOrder order;
    private final Col[] boundaries;
    private final int boundaryCount;

    /** Fails if the split points are not resolved: the scheduler binds them before the map stage runs. */
    public RangePartitioner(Partitioning.Range range, Schema input) {
        requireNonNull(range, "range is null");
        requireNonNull(input, "input is null");
        if (!range.splits().resolved()) {
            throw new IllegalStateException("range partitioning " + range + " has unresolved split points '"
                    + range.splits().id() + "': sample the inputs and bind boundaries (Range.withBoundaries) before "
                    + "running the map stage");
        }
        this.keys = range.keys();
        this.order = new KeyOrder(keys);
        DataType[] types = new DataType[keys.size()];
        for (int k = 0; k < types.length; k++) {
            types[k] = keys.get(k).expr().type(input);
        }
        this.boundaries = RangeBoundaries.toColumns(range.splits().boundaries(), types);
        this.boundaryCount = range.splits().boundaries().size();
    }

    /** The target partition of each row; length is the batch's row count. */
    public int[] partitions(Batch batch) {
        int rows = batch.rowCount();
        Col[] keyCols = new Col[keys.size()];
        for (int k = 0; k < keyCols.length; k++) {
            keyCols[k] = keys.get(k).expr().evaluate(batch);
            if (keyCols[k].length != rows) {
                throw new IllegalStateException("key " + keys.get(k) + " gave " + keyCols[k].length + " values for "
                        + rows + " rows");
            }
        }
        int[] out = new int[rows];
        if (boundaryCount == 0) {
            return out;
        }
        Col first = keyCols[0];
        if (keyCols.length == 1 && first.type.isLongBacked() && noNulls(boundaries[0].nulls)) {
            longKey(first, out);
        } else {
            for (int r = 0; r < rows; r++) {
                int lo = 0;
                int hi = boundaryCount;
                while (lo < hi) {
                    int mid = (lo + hi) >>> 1;
                    if (order.compare(boundaries, mid, keyCols, r) < 0) {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
                out[r] = lo;
            }
        }
        return out;
    }

    private static boolean noNulls(boolean[] nulls) {
        if (nulls == null) {
            return true;
        }
        for (boolean n : nulls) {
            if (n) {
                return false;
            }
        }
        return true;
    }

    /** One long-backed key and no NULL boundary: count boundaries before each value, directions applied. */
    private void longKey(Col key, int[] out) {
        SortKey sortKey = keys.get(0);
        long[] b = boundaries[0].longs;
        long[] v = key.longs;
        boolean[] nulls = key.nulls;
        boolean ascending = sortKey.ascending();
        int nullPartition = sortKey.nullsFirst() ? 0 : boundaryCount;
        for (int r = 0; r < out.length; r++) {
            if (nulls != null && nulls[r]) {
                out[r] = nullPartition;
                continue;
            }
            long x = v[r];
            int lo = 0;
            int hi = boundaryCount;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                boolean before = ascending ? b[mid] < x : b[mid] > x;
                if (before) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            out[r] = lo;
        }
    }
}
