package io.sluice.operators.filter;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.BinaryOp;
import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.InPlaceValues;
import io.sluice.kernels.KeyHash;
import io.sluice.logical.expr.Binary;
import io.sluice.logical.expr.Expr;
import io.sluice.logical.expr.Literal;
import io.sluice.operators.expr.BoundExprs;
import io.sluice.operators.hash.JoinHashTable;
import java.util.List;

/**
 * The key set of a hash join's build side in a compact, lossy form: a Bloom filter over the keys'
 * hashes and, for a single long-backed key (integers, dates, decimals), the least and greatest
 * value. A probe row whose key it rejects cannot match any build row, so it can be dropped before
 * the shuffle; a row it accepts may still not match (false positives, about 1.3% at
 * {@link #BITS_PER_KEY} bits a key when the build side has no more keys than planned). The filter
 * is blocked: all probes of a key fall in one cache line ({@link #BLOCK_WORDS}), so testing a row
 * costs one memory access and no branch per bit, which matters as it runs on every row of a probe
 * side's scan.
 *
 * <p>Each build task makes a partial filter of the rows it saw ({@link Builder}); the coordinator
 * {@link #merge merges} them: all partials of one filter have the bit count fixed at planning time,
 * so merging is a bitwise OR (and min of mins, max of maxes). More keys than planned only raise the
 * false-positive rate; answers never change.
 *
 * <p>Rows with a NULL key are rejected: they match nothing in the joins the planner filters (inner,
 * semi, anti, and the side an outer join does not preserve; never NOT IN or a mark join). Hashes are the join table's own ({@link KeyHash#hashInto}), so equal
 * keys of int and bigint columns agree.
 *
 * @param bits the Bloom filter, a power-of-two number of bits
 * @param ranged whether {@code min} and {@code max} bound the keys (a single long-backed key)
 * @param keys non-NULL build keys added, duplicates included (0: nothing can match)
 */
public record RuntimeFilter(long[] bits, boolean ranged, long min, long max, long keys) {
    /** Bits per planned build key: with {@link #PROBES} probes in a block, about 1.3% false positives. */
    public static final int BITS_PER_KEY = 10;
    /** Hash probes per key. */
    static final int PROBES = 4;
    /**
     * Words of a block, the span of one key's probes: 8 longs, one cache line. A key's probes then
     * cost one miss, not one each, and its bits are tested together without a branch per bit; at
     * {@link #BITS_PER_KEY} bits a key that leaves about 1.3% false positives (the keys spread less
     * evenly over blocks than over bits), where {@value #PROBES} probes anywhere would leave 1.2%.
     */
    static final int BLOCK_WORDS = 8;
    private static final int BLOCK_SHIFT = 3;
    /** Bits that place a probe within its block (512 bits), taken from the hash's top bits ... */
    private static final int BLOCK_POSITION_BITS = 9;
    /** ... from this one up; the block comes from the low bits (at most 16 of them, at {@link #MAX_BITS}). */
    private static final int PROBE_BITS_FROM = 64 - PROBES * BLOCK_POSITION_BITS;
    /** The smallest filter: 2^13 bits, 1 KiB. */
    static final long MIN_BITS = 1L << 13;
    /** The largest filter: 2^25 bits, 4 MiB (it travels in every probe task's plan). */
    public static final long MAX_BITS = 1L << 25;

    public RuntimeFilter {
        requireNonNull(bits, "bits is null");
        if (bits.length == 0 || Integer.bitCount(bits.length) != 1) {
            throw new IllegalArgumentException("a runtime filter's bit count must be a power of two, got " + bits.length * 64L);
        }
    }

    /** The bit count for {@code expectedKeys} distinct build keys, a power of two within the bounds. */
    public static long bitsFor(double expectedKeys) {
        double wanted = Math.max(1, expectedKeys) * BITS_PER_KEY;
        if (wanted >= MAX_BITS) {
            return MAX_BITS;
        }
        return Math.max(MIN_BITS, Long.highestOneBit((long) wanted - 1) << 1);
    }

    /** A filter's keys, checked to be at least one and to resolve against {@code schema}. */
    static List<Expr> checkedKeys(List<Expr> keys, Schema schema) {
        List<Expr> copy = List.copyOf(keys);
        if (copy.isEmpty()) {
            throw new IllegalArgumentException("a runtime filter needs at least one key");
        }
        copy.forEach(key -> key.type(schema));
        return copy;
    }

    /** How an operator of filter {@code id} on {@code keys} describes itself after its name. */
    static String describe(List<Expr> keys, String id) {
        return "keys=[" + keys.stream().map(Expr::toString).collect(java.util.stream.Collectors.joining(", ")) + "] filter=" + id;
    }

    /** This filter and {@code other} (another partial of the same filter) as one. */
    public RuntimeFilter merge(RuntimeFilter other) {
        if (other.bits.length != bits.length) {
            throw new IllegalArgumentException("cannot merge runtime filters of " + bits.length * 64L + " and "
                    + other.bits.length * 64L + " bits");
        }
        long[] merged = bits.clone();
        for (int i = 0; i < merged.length; i++) {
            merged[i] |= other.bits[i];
        }
        return new RuntimeFilter(merged, ranged && other.ranged, Math.min(min, other.min), Math.max(max, other.max),
                keys + other.keys);
    }

    private static long[] hash(Col[] cols, int rows) {
        long[] hashes = new long[rows];
        for (Col c : cols) {
            KeyHash.hashInto(c, hashes, rows);
        }
        return hashes;
    }

    /**
     * The word of {@code bits} (of {@code wordMask + 1} words) holding probe {@code i} of a key of
     * {@code hash}: every probe of a key lands in one block of {@link #BLOCK_WORDS} words, chosen by
     * the hash's low bits, at a position within the block from the hash's top bits.
     */
    private static int word(long hash, int i, int wordMask) {
        int wordInBlock = bit(hash, i) >>> 6 & (BLOCK_WORDS - 1);
        return ((int) hash << BLOCK_SHIFT | wordInBlock) & wordMask;
    }

    /** Probe {@code i}'s position in its block, whose low 6 bits are its bit in its {@link #word} (a long's shift uses only those). */
    private static int bit(long hash, int i) {
        return (int) (hash >>> (PROBE_BITS_FROM + BLOCK_POSITION_BITS * i));
    }

    private static void add(long[] bits, long hash) {
        int wordMask = bits.length - 1;
        for (int i = 0; i < PROBES; i++) {
            bits[word(hash, i, wordMask)] |= 1L << bit(hash, i);
        }
    }

    /** 1 when every probe bit of {@code hash} is set, else 0: no branch on the bits read. */
    private static long contains(long[] bits, long hash) {
        int wordMask = bits.length - 1;
        long all = 1;
        for (int i = 0; i < PROBES; i++) {
            all &= bits[word(hash, i, wordMask)] >>> bit(hash, i);
        }
        return all & 1;
    }

    /**
     * The rows of {@code batch} whose key may be in the build side, as indexes into {@code selected};
     * returns how many.
     */
    int select(BoundExprs probeKeys, Batch batch, int[] selected) {
        int rows = batch.rowCount();
        if (keys == 0) {
            return 0;
        }
        InPlaceValues key = probeKeys.size() == 1 ? probeKeys.expr(0, batch).inPlace(batch) : null;
        if (key != null) {
            return selectInPlace(key, rows, selected);
        }
        for (int r = 0; r < rows; r++) {
            selected[r] = r;
        }
        return narrowEvaluated(probeKeys, batch, selected, rows);
    }

    /**
     * Keeps, of the {@code count} rows of {@code batch} listed in {@code selected} (ascending), those
     * whose key may be in the build side, in place; returns how many. Only those rows are tested:
     * a scan's cheaper tests go first and this one sees what they kept.
     */
    int narrow(BoundExprs probeKeys, Batch batch, int[] selected, int count) {
        if (keys == 0 || count == 0) {
            return 0;
        }
        InPlaceValues key = probeKeys.size() == 1 ? probeKeys.expr(0, batch).inPlace(batch) : null;
        if (key != null) {
            return key.doubles ? narrowDoublesInPlace(key, selected, count) : narrowInPlace(key, selected, count);
        }
        return narrowEvaluated(probeKeys, batch, selected, count);
    }

    /** {@link #narrow} of keys evaluated into heap columns (several keys, or one not held in place). */
    private int narrowEvaluated(BoundExprs probeKeys, Batch batch, int[] selected, int count) {
        int rows = batch.rowCount();
        Col[] cols = probeKeys.evaluateAll(batch);
        boolean[] nullKey = JoinHashTable.anyNull(cols, rows);
        long[] hashes = hash(cols, rows);
        long[] values = ranged && cols.length == 1 ? cols[0].longs : null;
        int kept = 0;
        for (int i = 0; i < count; i++) {
            int r = selected[i];
            boolean keep = (nullKey == null || !nullKey[r])
                    && (values == null || (values[r] >= min && values[r] <= max))
                    && contains(bits, hashes[r]) != 0;
            selected[kept] = r;
            kept += keep ? 1 : 0;
        }
        return kept;
    }

    private int narrowInPlace(InPlaceValues key, int[] selected, int count) {
        long data = key.data;
        int shift = key.shift;
        long validity = key.validity;
        long[] bits = this.bits;
        long low = ranged ? min : Long.MIN_VALUE;
        long high = ranged ? max : Long.MAX_VALUE;
        int kept = 0;
        for (int i = 0; i < count; i++) {
            int r = selected[i];
            long value = InPlaceValues.longAt(data, shift, r);
            int valid = InPlaceValues.valid(validity, r);
            int inRange = value >= low & value <= high ? 1 : 0;
            selected[kept] = r;
            kept += valid & inRange & (int) contains(bits, KeyHash.ofLong(value));
        }
        return kept;
    }

    private int narrowDoublesInPlace(InPlaceValues key, int[] selected, int count) {
        long data = key.data;
        long validity = key.validity;
        long[] bits = this.bits;
        int kept = 0;
        for (int i = 0; i < count; i++) {
            int r = selected[i];
            int valid = InPlaceValues.valid(validity, r);
            selected[kept] = r;
            kept += valid & (int) contains(bits, KeyHash.ofDouble(InPlaceValues.doubleAt(data, r)));
        }
        return kept;
    }

    /**
     * {@link #select} of a single key read in place from its Arrow vector: the same rows. Each
     * value is hashed where it is tested ({@link KeyHash#ofLong}, the hash {@link KeyHash#hashInto}
     * gives it), so the test is one pass over the vector with no array of hashes between.
     */
    private int selectInPlace(InPlaceValues key, int rows, int[] selected) {
        if (key.doubles) {
            return selectDoublesInPlace(key, rows, selected);
        }
        long data = key.data;
        int shift = key.shift;
        long validity = key.validity;
        long[] bits = this.bits;
        // No branch per test (whether a row passes is data, not a pattern a predictor learns): each
        // test is a 0 or 1, and the row is kept when all are 1. Without a range every value is in it.
        long low = ranged ? min : Long.MIN_VALUE;
        long high = ranged ? max : Long.MAX_VALUE;
        int count = 0;
        if (validity == 0 && shift == 2) {
            // INT32 and DATE32 keys without NULLs, the usual foreign key: no stride or NULL test per row
            for (int r = 0; r < rows; r++) {
                long value = InPlaceValues.longAt(data, 2, r);
                int inRange = value >= low & value <= high ? 1 : 0;
                selected[count] = r;
                count += inRange & (int) contains(bits, KeyHash.ofLong(value));
            }
            return count;
        }
        for (int r = 0; r < rows; r++) {
            long value = InPlaceValues.longAt(data, shift, r);
            int valid = InPlaceValues.valid(validity, r);
            int inRange = value >= low & value <= high ? 1 : 0;
            selected[count] = r;
            count += valid & inRange & (int) contains(bits, KeyHash.ofLong(value));
        }
        return count;
    }

    /** {@link #selectInPlace} of a FLOAT64 key: no range (a filter of doubles holds none). */
    private int selectDoublesInPlace(InPlaceValues key, int rows, int[] selected) {
        long data = key.data;
        long validity = key.validity;
        long[] bits = this.bits;
        int count = 0;
        for (int r = 0; r < rows; r++) {
            int valid = InPlaceValues.valid(validity, r);
            selected[count] = r;
            count += valid & (int) contains(bits, KeyHash.ofDouble(InPlaceValues.doubleAt(data, r)));
        }
        return count;
    }

    /**
     * The key range as predicates on the single probe key ({@code key >= min AND key <= max}, as
     * literals of the key's type), for skipping input whose statistics lie outside it; none when
     * the filter holds no range. With no build key at all the range is empty (min above max), so
     * every row group is skipped.
     */
    List<Expr> rangePredicates(List<Expr> probeKeys, Schema probeSchema) {
        if (!ranged || probeKeys.size() != 1) {
            return List.of();
        }
        Expr key = probeKeys.get(0);
        DataType type = key.type(probeSchema);
        if (!type.isLongBacked()) {
            return List.of();
        }
        return List.of(new Binary(BinaryOp.GT_EQ, key, new Literal(min, type)),
                new Binary(BinaryOp.LT_EQ, key, new Literal(max, type)));
    }

    /** Share of the filter's bits that are set: near 1, it rejects little. */
    public double fill() {
        long set = 0;
        for (long word : bits) {
            set += Long.bitCount(word);
        }
        return (double) set / (bits.length * 64L);
    }

    @Override
    public String toString() {
        return "RuntimeFilter[" + keys + " keys, " + bits.length * 64L + " bits, " + Math.round(fill() * 100) + "% set"
                + (ranged && keys > 0 ? ", range [" + min + ", " + max + "]" : "") + "]";
    }

    /** One task's partial filter, filled batch by batch; not thread-safe. */
    static final class Builder {
        private final List<Expr> keys;
        private BoundExprs bound; // bound to the first batch's schema
        private final long[] bits;
        private boolean ranged;
        private long min = Long.MAX_VALUE;
        private long max = Long.MIN_VALUE;
        private long count;

        Builder(List<Expr> keys, long bitCount) {
            this.keys = List.copyOf(keys);
            if (bitCount < 64 || Long.bitCount(bitCount) != 1 || bitCount > MAX_BITS) {
                throw new IllegalArgumentException("bad runtime filter bit count " + bitCount);
            }
            this.bits = new long[(int) (bitCount / 64)];
            this.ranged = keys.size() == 1;
        }

        /** Heap bytes the filter holds. */
        long heapBytes() {
            return bits.length * 8L;
        }

        void add(Batch batch) {
            int rows = batch.rowCount();
            if (bound == null) {
                bound = new BoundExprs(keys, batch.schema());
            }
            InPlaceValues key = keys.size() == 1 ? bound.expr(0, batch).inPlace(batch) : null;
            if (key != null) {
                addInPlace(key, rows);
                return;
            }
            Col[] cols = bound.evaluateAll(batch);
            ranged &= cols.length == 1 && cols[0].longs != null;
            boolean[] nullKey = JoinHashTable.anyNull(cols, rows);
            long[] hashes = hash(cols, rows);
            for (int r = 0; r < rows; r++) {
                if (nullKey == null || !nullKey[r]) {
                    RuntimeFilter.add(bits, hashes[r]);
                    count++;
                    if (ranged) {
                        long v = cols[0].longs[r];
                        min = Math.min(min, v);
                        max = Math.max(max, v);
                    }
                }
            }
        }

        /** {@link #add} of a single key read in place from its Arrow vector, each value hashed as {@link #selectInPlace} hashes it. */
        private void addInPlace(InPlaceValues key, int rows) {
            ranged &= !key.doubles;
            long data = key.data;
            int shift = key.shift;
            long validity = key.validity;
            for (int r = 0; r < rows; r++) {
                if (InPlaceValues.isNull(validity, r)) {
                    continue;
                }
                count++;
                if (key.doubles) {
                    RuntimeFilter.add(bits, KeyHash.ofDouble(InPlaceValues.doubleAt(data, r)));
                    continue;
                }
                long v = InPlaceValues.longAt(data, shift, r);
                RuntimeFilter.add(bits, KeyHash.ofLong(v));
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }

        RuntimeFilter build() {
            return new RuntimeFilter(bits.clone(), ranged, min, max, count);
        }
    }
}
