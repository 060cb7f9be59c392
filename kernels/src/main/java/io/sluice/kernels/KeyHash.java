package io.sluice.kernels;

import static io.sluice.common.HashMix.fold;
import static io.sluice.common.HashMix.mix;

import io.sluice.common.HashMix;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The one hash family of Sluice's keys: the operators' hash tables (the aggregate's
 * {@code GroupTable}, and through it joins, the grace join's spill partitions and runtime filters)
 * and the shuffle's hash partitioning all hash a row's keys with {@link #hashInto} (one value hash
 * per type, folded column after column through {@link HashMix#mix}). A long hashes by its value, so an
 * INT32 5 and an INT64 5 agree, and a decimal of 19 to 38 digits that fits a long hashes as that
 * long; a double hashes by its bits with -0.0 as 0.0 and every NaN as the canonical NaN; a string
 * by its UTF-8 bytes, a multiply-xorshift step per 8 of them taken as a little-endian word (the
 * last, partial word zero-padded, the length in the seed so that a shorter key padded with zeros
 * differs), left for the fold to finish with the mix. A string held as a Java {@code String}
 * hashes to the same value as its UTF-8 bytes, without encoding it when it is ASCII, so a key that
 * arrives as bytes in one batch and as a string in another finds the same group. NULL folds in a
 * constant, so all NULLs of a column hash alike. Only value bits are hashed, never identity
 * hashes: the hashes are the same on every node and in every run.
 *
 * <p>A table's row hash starts from 0; the partition hash ({@link #partitionSeeds},
 * {@link #partition}) starts from its own seed. The two must not correlate: the rows of one hash
 * partition share their partition hash modulo n, which would crowd a table indexed by it.
 */
public final class KeyHash {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long SEED = 0x9E3779B97F4A7C15L;
    private static final long M = 0xff51afd7ed558ccdL;
    /** What a NULL key folds in. */
    private static final long NULL_HASH = 0x2545F4914F6CDD1DL;
    /** The partition hash's start, apart from a table's (0) so that the two do not correlate. */
    private static final long PARTITION_SEED = 0x5bd1e9955bd1e995L;

    private KeyHash() {
    }

    /**
     * Folds one key column into the running per-row hashes of its first {@code n} rows. A NULL row
     * folds in a constant and never the value under its slot, which is unspecified (whatever a
     * kernel left there), so all NULLs of a column hash alike and meet in one group.
     */
    public static void hashInto(Col c, long[] hashes, int n) {
        boolean[] nulls = c.nulls;
        switch (c.type.kind()) {
            case FLOAT64 -> {
                double[] v = c.doubles;
                for (int i = 0; i < n; i++) {
                    hashes[i] = fold(hashes[i], nulls != null && nulls[i] ? NULL_HASH : doubleBits(v[i]));
                }
            }
            case BOOL, NULL -> {
                boolean[] v = c.bools;
                for (int i = 0; i < n; i++) {
                    hashes[i] = fold(hashes[i], nulls != null && nulls[i] ? NULL_HASH : v[i] ? 1 : 2);
                }
            }
            case UTF8 -> {
                // the hash of the UTF-8 bytes, as for a key read as bytes (the same value may come either way)
                String[] v = c.strings;
                for (int i = 0; i < n; i++) {
                    hashes[i] = fold(hashes[i], nulls != null && nulls[i] ? NULL_HASH : string(v[i]));
                }
            }
            default -> {
                if (c.isWide()) {
                    // a value that fits a long hashes as that long, so both forms of one value agree
                    for (int i = 0; i < n; i++) {
                        hashes[i] = fold(hashes[i], nulls != null && nulls[i] ? NULL_HASH : Int128.hashBits(c.highs[i], c.lows[i]));
                    }
                    return;
                }
                long[] v = c.longs;
                for (int i = 0; i < n; i++) {
                    hashes[i] = fold(hashes[i], nulls != null && nulls[i] ? NULL_HASH : v[i]);
                }
            }
        }
    }

    /**
     * {@link #hashInto(Col, long[], int)} of a fixed-width column read in place: the same hash for
     * each value as its heap column gives (a decimal's unscaled long, a double's canonical bits).
     */
    public static void hashInto(InPlaceValues c, long[] hashes, int n) {
        long data = c.data;
        long validity = c.validity;
        if (c.doubles) {
            for (int i = 0; i < n; i++) {
                hashes[i] = fold(hashes[i], InPlaceValues.isNull(validity, i) ? NULL_HASH
                        : doubleBits(InPlaceValues.doubleAt(data, i)));
            }
            return;
        }
        int shift = c.shift;
        for (int i = 0; i < n; i++) {
            hashes[i] = fold(hashes[i], InPlaceValues.isNull(validity, i) ? NULL_HASH : InPlaceValues.longAt(data, shift, i));
        }
    }

    /** {@link #hashInto(Col, long[], int)} of a string key column as UTF-8 bytes: the same hash as its {@code String}s. */
    public static void hashInto(Utf8Bytes c, long[] hashes, int n) {
        byte[] data = c.data();
        int[] offsets = c.offsets();
        boolean[] nulls = c.nulls();
        for (int i = 0; i < n; i++) {
            hashes[i] = fold(hashes[i], nulls != null && nulls[i] ? NULL_HASH : bytes(data, offsets[i], offsets[i + 1]));
        }
    }

    /**
     * The row hash of a key of one long-backed column whose value is {@code value}: what
     * {@link #hashInto} leaves for such a row when it starts from 0. For a loop that hashes a
     * value where it uses it (a runtime filter's test), with no array of hashes between.
     */
    public static long ofLong(long value) {
        return fold(0, value);
    }

    /** {@link #ofLong} of a single FLOAT64 key: its bits with -0.0 as 0.0 and every NaN as the canonical NaN. */
    public static long ofDouble(double value) {
        return fold(0, doubleBits(value));
    }

    /** The bits a double hashes by: -0.0 as 0.0 and every NaN as the canonical NaN, so equal values hash alike. */
    private static long doubleBits(double d) {
        return Double.doubleToLongBits(d == 0.0 ? 0.0 : d);
    }

    /** Running hashes for {@code rows} rows ready to take a partition hash's key columns through {@link #hashInto}. */
    public static long[] partitionSeeds(int rows) {
        long[] hashes = new long[rows];
        seedPartitions(hashes, rows);
        return hashes;
    }

    /** {@link #partitionSeeds} into the first {@code rows} of {@code hashes}, an array of the caller's reused from batch to batch. */
    public static void seedPartitions(long[] hashes, int rows) {
        Arrays.fill(hashes, 0, rows, PARTITION_SEED);
    }

    /** The partition, in {@code [0, partitionCount)}, of a row whose partition hash is {@code hash}. */
    public static int partition(long hash, int partitionCount) {
        return Math.floorMod(mix(hash), partitionCount);
    }

    /** One word into the running state of a string hash: a multiply and a rotate-xor, one cycle's work apart. */
    private static long step(long h, long word) {
        h = (h ^ word) * M;
        return h ^ (h >>> 29);
    }

    /**
     * The hash of bytes {@code [from, to)}, 8 at a time. Not finished with {@link HashMix#mix}: the
     * {@link HashMix#fold} of every key's hash does that.
     */
    public static long bytes(byte[] data, int from, int to) {
        long h = SEED ^ (to - from);
        int i = from;
        for (int last = to - 8; i <= last; i += 8) {
            h = step(h, (long) LONGS.get(data, i));
        }
        return i < to ? step(h, tail(data, i, to)) : h;
    }

    /**
     * Bytes {@code [from, to)}, 1 to 7 of them, as a little-endian word padded with zeros: one
     * 8-byte read that ends at or starts at them when the array has room (the bytes around
     * belong to other values), else byte by byte.
     */
    private static long tail(byte[] data, int from, int to) {
        int rest = to - from;
        if (to >= 8) {
            return (long) LONGS.get(data, to - 8) >>> (64 - 8 * rest);
        }
        if (from + 8 <= data.length) {
            return (long) LONGS.get(data, from) & (-1L >>> (64 - 8 * rest));
        }
        long word = 0;
        for (int i = from, shift = 0; i < to; i++, shift += 8) {
            word |= (data[i] & 0xffL) << shift;
        }
        return word;
    }

    /** Whether bytes {@code a[aFrom, aTo)} equal {@code b[bFrom, bTo)}: 8 bytes a compare (a short key's few bytes cost one). */
    public static boolean equalBytes(byte[] a, int aFrom, int aTo, byte[] b, int bFrom, int bTo) {
        int length = aTo - aFrom;
        if (length != bTo - bFrom) {
            return false;
        }
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            if ((long) LONGS.get(a, aFrom + i) != (long) LONGS.get(b, bFrom + i)) {
                return false;
            }
        }
        return i == length || tail(a, aFrom + i, aTo) == tail(b, bFrom + i, bTo);
    }

    /** {@link #bytes} of a string's UTF-8 bytes, without encoding it when it is ASCII. */
    public static long string(String s) {
        int length = s.length();
        long h = SEED ^ length;
        long word = 0;
        int shift = 0;
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
                return bytes(utf8, 0, utf8.length);
            }
            word |= (long) c << shift;
            shift += 8;
            if (shift == 64) {
                h = step(h, word);
                word = 0;
                shift = 0;
            }
        }
        return shift != 0 ? step(h, word) : h;
    }

    /** Whether {@code s} is the string whose UTF-8 bytes are {@code [from, to)}, without encoding it when it is ASCII. */
    public static boolean equalsUtf8(String s, byte[] data, int from, int to) {
        int length = s.length();
        if (length > to - from) {
            return false; // a char is at least one byte
        }
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
                return Arrays.equals(utf8, 0, utf8.length, data, from, to);
            }
            if (data[from + i] != (byte) c) {
                return false;
            }
        }
        return length == to - from;
    }
}
