package io.sluice.plan.operators;

import static java.util.Objects.requireNonNull;

import io.sluice.plan.exec.Batch;
import io.sluice.plan.exec.BatchStream;
import io.sluice.plan.exec.Col;
import io.sluice.plan.expr.Expr;
import io.sluice.plan.physical.TaskContext;
import java.util.Arrays;
import java.util.List;

/**
 * The key set of a hash join's build side in a compact, lossy form: a Bloom filter over the keys'
 * hashes and, for a single long-backed key (integers, dates, decimals), the least and greatest
 * value. A probe row whose key it rejects cannot match any build row, so it can be dropped before
 * the shuffle; a row it accepts may still not match (false positives, about 1% at 10 bits a key).
 *
 * <p>Rows with a NULL key are rejected: they match nothing in an inner or semi join, the only
 * joins the planner filters. Hashes are {@link GroupTable#hashInto}'s, the join's own, so equal
 * keys of int and bigint columns agree.
 *
 * <p>Immutable once built; the bit array is heap memory sized from the build side's actual row
 * count (at most {@link #MAX_BITS} bits).
 */
final class RuntimeFilter {
    /** Bits per distinct build key: with {@link #PROBES} probes, about 1% false positives. */
    static final int BITS_PER_KEY = 10;
    /** Hash probes per key. */
    static final int PROBES = 3;
    /** The largest filter: 2^27 bits, 16 MiB. */
    static final long MAX_BITS = 1L << 27;

    private final long[] bits;
    private final int mask;
    private final boolean ranged;
    private final long min;
    private final long max;
    private final long keys;

    private RuntimeFilter(long[] bits, boolean ranged, long min, long max, long keys) {
        this.bits = bits;
        this.mask = bits.length * 64 - 1;
        this.ranged = ranged;
        this.min = min;
        this.max = max;
        this.keys = keys;
    }

    /** Reads {@code source} to its end (closing it and its batches) and builds the filter of its {@code keys}. */
    static RuntimeFilter build(BatchStream source, List<Expr> keys, TaskContext context) {
        requireNonNull(source, "source is null");
        long[] hashes = new long[1024];
        int count = 0;
        boolean ranged = keys.size() == 1;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        try (source) {
            Batch batch;
            while ((batch = source.next()) != null) {
                try (Batch b = batch) {
                    context.checkNotCancelled();
                    int rows = b.rowCount();
                    Col[] cols = evaluate(keys, b);
                    ranged &= cols.length == 1 && cols[0].longs != null;
                    boolean[] nullKey = JoinHashTable.anyNull(cols, rows);
                    long[] batchHashes = hash(cols, rows);
                    if (count + rows > hashes.length) {
                        hashes = Arrays.copyOf(hashes, Math.max(hashes.length * 2, count + rows));
                    }
                    for (int r = 0; r < rows; r++) {
                        if (nullKey == null || !nullKey[r]) {
                            hashes[count++] = batchHashes[r];
                            if (ranged) {
                                long v = cols[0].longs[r];
                                min = Math.min(min, v);
                                max = Math.max(max, v);
                            }
                        }
                    }
                }
            }
        }
        long wanted = Math.max(64, Long.highestOneBit(Math.max(1, (long) count * BITS_PER_KEY) - 1) << 1);
        long[] bits = new long[(int) (Math.min(MAX_BITS, wanted) / 64)];
        RuntimeFilter filter = new RuntimeFilter(bits, ranged, min, max, count);
        for (int i = 0; i < count; i++) {
            filter.add(hashes[i]);
        }
        return filter;
    }

    private static Col[] evaluate(List<Expr> keys, Batch batch) {
        Col[] cols = new Col[keys.size()];
        for (int k = 0; k < cols.length; k++) {
            cols[k] = keys.get(k).evaluate(batch);
        }
        return cols;
    }

    private static long[] hash(Col[] cols, int rows) {
        long[] hashes = new long[rows];
        for (Col c : cols) {
            GroupTable.hashInto(c, hashes);
        }
        return hashes;
    }

    private void add(long hash) {
        int h1 = (int) hash;
        int h2 = (int) (hash >>> 32);
        for (int i = 1; i <= PROBES; i++) {
            int bit = (h1 + i * h2) & mask;
            bits[bit >>> 6] |= 1L << bit;
        }
    }

    private boolean mightContain(long hash) {
        int h1 = (int) hash;
        int h2 = (int) (hash >>> 32);
        for (int i = 1; i <= PROBES; i++) {
            int bit = (h1 + i * h2) & mask;
            if ((bits[bit >>> 6] & (1L << bit)) == 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The rows of {@code batch} whose key may be in the build side, as indexes into {@code selected};
     * returns how many.
     */
    int select(List<Expr> probeKeys, Batch batch, int[] selected) {
        int rows = batch.rowCount();
        if (keys == 0) {
            return 0;
        }
        Col[] cols = evaluate(probeKeys, batch);
        boolean[] nullKey = JoinHashTable.anyNull(cols, rows);
        long[] hashes = hash(cols, rows);
        long[] values = ranged && cols.length == 1 ? cols[0].longs : null;
        int count = 0;
        for (int r = 0; r < rows; r++) {
            boolean keep = (nullKey == null || !nullKey[r])
                    && (values == null || (values[r] >= min && values[r] <= max))
                    && mightContain(hashes[r]);
            selected[count] = r;
            count += keep ? 1 : 0;
        }
        return count;
    }

    /** Distinct and duplicate non-NULL build keys the filter was built from. */
    long keyCount() {
        return keys;
    }

    @Override
    public String toString() {
        return "RuntimeFilter[" + keys + " keys, " + bits.length * 64L + " bits"
                + (ranged ? ", range [" + min + ", " + max + "]" : "") + "]";
    }
}
