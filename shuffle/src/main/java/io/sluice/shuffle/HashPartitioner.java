package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.sluice.common.HashMix;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.InPlaceValues;
import io.sluice.logical.expr.Expr;
import io.sluice.operators.expr.BoundExprs;
import java.util.List;

/**
 * Assigns each row of a batch to a partition by hashing its key values: {@code hash(keys) mod n}.
 *
 * <p>This class is the one definition of Sluice's hash scheme, so every writer that hash-partitions
 * on the same keys and count places equal keys in the same partition (what co-partitioned joins
 * rely on). Guarantees:
 * <ul>
 *   <li>Deterministic across JVMs and runs: only value bits are hashed, never identity hashes.</li>
 *   <li>Equal key values hash equally regardless of the long-backed type that holds them (an INT32
 *       5 and an INT64 5 agree); decimals agree only at equal scale, so the planner must cast.</li>
 *   <li>FLOAT64: -0.0 hashes as 0.0, and every NaN as the canonical NaN.</li>
 *   <li>NULL hashes to a fixed constant, so all NULL keys land together.</li>
 * </ul>
 *
 * <p>Not thread-safe (one per map task). Vectorized: each key is bound once to the input's columns
 * and evaluated once per batch, then per-row 64-bit hashes are combined in
 * tight loops over the primitive arrays.
 */
public final class HashPartitioner {
    private static final long NULL_HASH = 0x5bd1e9955bd1e995L;
    private static final long TRUE_HASH = 0x2545f4914f6cdd1dL;
    private static final long FALSE_HASH = 0x1b873593cc9e2d51L;
    private static final long SEED = 0x9e3779b97f4a7c15L;
    private static final long MULTIPLIER = 0xc6a4a7935bd1e995L;

    private final List<Expr> keys;
    private final int partitionCount;
    /** The keys bound to the columns of the first batch's schema (again for a batch of another schema). */
    private BoundExprs bound;

    public HashPartitioner(List<Expr> keys, int partitionCount) {
        this.keys = List.copyOf(requireNonNull(keys, "keys is null"));
        if (this.keys.isEmpty()) {
            throw new IllegalArgumentException("hash partitioning needs a key");
        }
        if (partitionCount < 1) {
            throw new IllegalArgumentException("partition count must be positive: " + partitionCount);
        }
        this.partitionCount = partitionCount;
    }

    public List<Expr> keys() {
        return keys;
    }

    public int partitionCount() {
        return partitionCount;
    }

    /** The target partition of each row, in {@code [0, partitionCount)}; length is the batch's row count. */
    public int[] partitions(Batch batch) {
        int rows = batch.rowCount();
        long[] hashes = new long[rows];
        java.util.Arrays.fill(hashes, SEED);
        if (bound == null) {
            bound = new BoundExprs(keys, batch.schema());
        }
        for (int k = 0; k < keys.size(); k++) {
            InPlaceValues inPlace = bound.expr(k, batch).inPlace(batch);
            if (inPlace != null) {
                combine(hashes, inPlace);
                continue;
            }
            Col col = bound.evaluate(k, batch);
            if (col.length != rows) {
                throw new IllegalStateException("key " + keys.get(k) + " gave " + col.length + " values for " + rows + " rows");
            }
            combine(hashes, col);
        }
        int[] out = new int[rows];
        for (int i = 0; i < rows; i++) {
            out[i] = Math.floorMod(mix(hashes[i]), partitionCount);
        }
        return out;
    }

    /** Folds one key column into the running per-row hashes. */
    static void combine(long[] hashes, Col col) {
        int rows = hashes.length;
        boolean[] nulls = col.nulls;
        switch (col.type.kind()) {
            case NULL -> {
                for (int i = 0; i < rows; i++) {
                    hashes[i] = fold(hashes[i], NULL_HASH);
                }
            }
            case BOOL -> {
                boolean[] v = col.bools;
                for (int i = 0; i < rows; i++) {
                    long h = v[i] ? TRUE_HASH : FALSE_HASH;
                    hashes[i] = fold(hashes[i], nulls != null && nulls[i] ? NULL_HASH : h);
                }
            }
            case FLOAT64 -> {
                double[] v = col.doubles;
                for (int i = 0; i < rows; i++) {
                    hashes[i] = fold(hashes[i], nulls != null && nulls[i] ? NULL_HASH : hashDouble(v[i]));
                }
            }
            case UTF8 -> {
                String[] v = col.strings;
                for (int i = 0; i < rows; i++) {
                    hashes[i] = fold(hashes[i], nulls != null && nulls[i] ? NULL_HASH : hashString(v[i]));
                }
            }
            case INT32, INT64, DATE32, DECIMAL, TIMESTAMP -> {
                if (col.isWide()) {
                    // a value that fits a long hashes as that long, so both forms of one value agree
                    for (int i = 0; i < rows; i++) {
                        hashes[i] = fold(hashes[i], nulls != null && nulls[i] ? NULL_HASH
                                : mix(io.sluice.kernels.Int128.hashBits(col.highs[i], col.lows[i])));
                    }
                    return;
                }
                long[] v = col.longs;
                for (int i = 0; i < rows; i++) {
                    hashes[i] = fold(hashes[i], nulls != null && nulls[i] ? NULL_HASH : mix(v[i]));
                }
            }
            default -> throw new IllegalStateException("cannot hash type " + col.type);
        }
    }

    /** {@link #combine(long[], Col)} of a fixed-width key read in place: each value hashes as in its heap column. */
    static void combine(long[] hashes, InPlaceValues col) {
        int rows = hashes.length;
        long data = col.data;
        long validity = col.validity;
        if (col.doubles) {
            for (int i = 0; i < rows; i++) {
                hashes[i] = fold(hashes[i], InPlaceValues.isNull(validity, i) ? NULL_HASH
                        : hashDouble(InPlaceValues.doubleAt(data, i)));
            }
            return;
        }
        int shift = col.shift;
        for (int i = 0; i < rows; i++) {
            hashes[i] = fold(hashes[i], InPlaceValues.isNull(validity, i) ? NULL_HASH
                    : mix(InPlaceValues.longAt(data, shift, i)));
        }
    }

    static long hashDouble(double d) {
        // 0.0 == -0.0 is true, so both take the bits of +0.0; doubleToLongBits canonicalizes NaN.
        double normalized = d == 0.0 ? 0.0 : d;
        return mix(Double.doubleToLongBits(normalized));
    }

    static long hashString(String s) {
        // String.hashCode is specified by the JLS, hence stable across JVMs; the length adds the
        // other 32 bits before mixing.
        return mix(((long) s.length() << 32) ^ (s.hashCode() & 0xffffffffL));
    }

    private static long fold(long running, long keyHash) {
        return (running ^ keyHash) * MULTIPLIER + SEED;
    }

    static long mix(long h) {
        return HashMix.mix(h);
    }
}
