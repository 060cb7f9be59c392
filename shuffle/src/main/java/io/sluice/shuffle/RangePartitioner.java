package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.logical.expr.SortKey;
import io.sluice.operators.KeyOrder;
import io.sluice.operators.Partitioning;
import io.sluice.operators.RangeBoundaries;
import io.sluice.operators.expr.BoundExprs;
import java.util.List;

/**
 * Assigns each row of a batch to a range partition: the number of boundaries that sort strictly
 * before the row's key tuple under the partitioning's sort keys ({@link KeyOrder}: directions,
 * NULL placement, {@code -0.0 == 0.0}). So rows equal to a boundary go to that boundary's
 * partition, equal keys always share a partition, and every key in partition {@code i} sorts
 * before or equal to every key in partition {@code i + 1}. With the usual ascending NULLS LAST
 * keys, NULL keys land in the last non-empty partition.
 *
 * <p>Keys are evaluated once per batch. When the first key is numeric (integers, dates, decimals,
 * doubles) and no boundary's first key is NULL, the first key of the whole batch is mapped to
 * order-preserving longs ({@link KeyOrder#normalizedKey}, direction included), as are the
 * boundaries' once, and each row binary-searches the boundary longs with primitive comparisons
 * only: the range of boundaries whose first key is below the row's and the range equal to it. Only
 * a row whose first key equals some boundary's (rare: a handful of rows per batch) compares its
 * later keys with those boundaries, and only a row with a NULL first key takes the general
 * comparison over all boundaries.
 */
public final class RangePartitioner {
    private final List<SortKey> keys;
    /** The keys' expressions bound to the input's columns. */
    private final BoundExprs bound;
    private final KeyOrder order;
    private final Col[] boundaries;
    private final int boundaryCount;
    /** The boundaries' first keys as normalized longs, or null when the fast path does not apply. */
    private final long[] firstBoundary;

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
        this.bound = BoundExprs.ofSortKeys(keys, input);
        this.order = new KeyOrder(keys);
        DataType[] types = new DataType[keys.size()];
        for (int k = 0; k < types.length; k++) {
            types[k] = keys.get(k).expr().type(input);
        }
        this.boundaries = RangeBoundaries.toColumns(range.splits().boundaries(), types);
        this.boundaryCount = range.splits().boundaries().size();
        Col first = boundaries[0];
        boolean numeric = (types[0].isLongBacked() || types[0].kind() == DataType.Kind.FLOAT64) && !first.isWide();
        this.firstBoundary = numeric && noNulls(first.nulls) ? KeyOrder.normalizedKey(first, keys.get(0).ascending()) : null;
    }

    /** The target partition of each row; length is the batch's row count. */
    public int[] partitions(Batch batch) {
        int rows = batch.rowCount();
        Col[] keyCols = new Col[keys.size()];
        for (int k = 0; k < keyCols.length; k++) {
            keyCols[k] = bound.evaluate(k, batch);
            if (keyCols[k].length != rows) {
                throw new IllegalStateException("key " + keys.get(k) + " gave " + keyCols[k].length + " values for "
                        + rows + " rows");
            }
        }
        int[] out = new int[rows];
        if (boundaryCount == 0) {
            return out;
        }
        if (firstBoundary != null && !keyCols[0].isWide()) {
            normalized(keyCols, out);
        } else {
            for (int r = 0; r < rows; r++) {
                out[r] = search(keyCols, r, 0, boundaryCount);
            }
        }
        return out;
    }

    /** The number of boundaries in {@code [lo, hi)} (and all before {@code lo}) that sort before row {@code r}. */
    private int search(Col[] keyCols, int r, int lo, int hi) {
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (order.compare(boundaries, mid, keyCols, r) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * Placement by the normalized first key: {@code below} boundaries have a smaller first key and
     * {@code upTo} at most an equal one; with one key, or none equal, the row goes after the
     * {@code below} ones; otherwise its later keys decide among the equal ones.
     */
    private void normalized(Col[] keyCols, int[] out) {
        Col first = keyCols[0];
        long[] v = KeyOrder.normalizedKey(first, keys.get(0).ascending());
        long[] b = firstBoundary;
        int n = boundaryCount;
        boolean single = keyCols.length == 1;
        for (int r = 0; r < out.length; r++) {
            if (first.isNull(r)) {
                out[r] = search(keyCols, r, 0, n);
                continue;
            }
            long x = v[r];
            int lo = 0;
            int hi = n;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (b[mid] < x) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            if (single || lo == n || b[lo] != x) {
                out[r] = lo;
                continue;
            }
            int upTo = lo + 1;
            while (upTo < n && b[upTo] == x) {
                upTo++;
            }
            out[r] = search(keyCols, r, lo, upTo);
        }
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
}
