package io.sluice.shuffle;

import static java.util.Objects.requireNonNull;

import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.InPlaceValues;
import io.sluice.kernels.KeyHash;
import io.sluice.kernels.Utf8Bytes;
import io.sluice.logical.expr.Expr;
import io.sluice.operators.expr.BoundExprs;
import java.util.List;

/**
 * Assigns each row of a batch to a partition by hashing its key values: {@code hash(keys) mod n}.
 *
 * <p>This class is the one place a hash partition is computed, with {@link KeyHash}'s partition
 * hash, so every writer that hash-partitions on the same keys and count places equal keys in the
 * same partition (what co-partitioned joins rely on). Guarantees:
 * <ul>
 *   <li>Deterministic across JVMs and runs: only value bits are hashed, never identity hashes.</li>
 *   <li>Equal key values hash equally regardless of the long-backed type that holds them (an INT32
 *       5 and an INT64 5 agree); decimals agree only at equal scale, so the planner must cast.</li>
 *   <li>FLOAT64: -0.0 hashes as 0.0, and every NaN as the canonical NaN.</li>
 *   <li>A string hashes by its UTF-8 bytes.</li>
 *   <li>NULL hashes to a fixed constant, so all NULL keys land together.</li>
 * </ul>
 *
 * <p>Not thread-safe (one per map task). Vectorized: each key is bound once to the input's columns
 * and evaluated once per batch, then per-row 64-bit hashes are combined in
 * tight loops over the primitive arrays.
 */
public final class HashPartitioner {
    private final List<Expr> keys;
    private final int partitionCount;
    /** The keys bound to the columns of the first batch's schema (again for a batch of another schema). */
    private BoundExprs bound;
    /** Row hashes and partitions of the last batch, reused: two new arrays a batch were zeroed for nothing. */
    private long[] hashes = new long[0];
    private int[] out = new int[0];

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

    /**
     * The target partition of each row, in {@code [0, partitionCount)}; length is the batch's row
     * count. The array is this partitioner's own, valid until the next call (the map output writer
     * reads it within its {@code add}).
     */
    public int[] partitions(Batch batch) {
        int rows = batch.rowCount();
        if (hashes.length < rows) {
            hashes = new long[rows];
        }
        KeyHash.seedPartitions(hashes, rows);
        if (bound == null) {
            bound = new BoundExprs(keys, batch.schema());
        }
        for (int k = 0; k < keys.size(); k++) {
            InPlaceValues inPlace = bound.expr(k, batch).inPlace(batch);
            if (inPlace != null) {
                KeyHash.hashInto(inPlace, hashes, rows);
                continue;
            }
            Utf8Bytes utf8 = bound.utf8(k, batch);
            if (utf8 != null) {
                // a string key held as Arrow is hashed on its bytes, never decoded
                KeyHash.hashInto(utf8, hashes, rows);
                continue;
            }
            Col col = bound.evaluate(k, batch);
            if (col.length != rows) {
                throw new IllegalStateException("key " + keys.get(k) + " gave " + col.length + " values for " + rows + " rows");
            }
            KeyHash.hashInto(col, hashes, rows);
        }
        if (out.length != rows) {
            out = new int[rows];
        }
        for (int i = 0; i < rows; i++) {
            out[i] = KeyHash.partition(hashes[i], partitionCount);
        }
        return out;
    }
}
