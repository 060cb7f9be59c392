package io.sluice.kernels;

import io.sluice.common.HashMix;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The hashes of the operators' hash tables (the aggregate's {@code GroupTable}, and through it joins and runtime
 * filters; the shuffle's hash partitioner uses the same {@link HashMix#mix}): a 64-bit multiply-xorshift mix for a long, and for a string a multiply-xorshift step
 * per 8 of its UTF-8 bytes taken as a little-endian word (the last, partial word zero-padded, the
 * length in the seed so that a shorter key padded with zeros differs), left for the table's fold
 * to finish with {@link HashMix#mix}. A string held as a Java {@code String}
 * hashes to the same value as its UTF-8 bytes, without encoding it when it is ASCII, so a key that
 * arrives as bytes in one batch and as a string in another finds the same group.
 *
 * <p>Not the shuffle's {@code HashPartitioner} hash: the rows of one hash partition share their
 * partition hash modulo n, which would crowd a table indexed by it.
 */
public final class KeyHash {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long SEED = 0x9E3779B97F4A7C15L;
    private static final long M = 0xff51afd7ed558ccdL;

    private KeyHash() {
    }

    /** One word into the running state of a string hash: a multiply and a rotate-xor, one cycle's work apart. */
    private static long step(long h, long word) {
        h = (h ^ word) * M;
        return h ^ (h >>> 29);
    }

    /**
     * The hash of bytes {@code [from, to)}, 8 at a time. Not finished with {@link #mix}: the
     * group table folds every key's hash through it anyway.
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
                return java.util.Arrays.equals(utf8, 0, utf8.length, data, from, to);
            }
            if (data[from + i] != (byte) c) {
                return false;
            }
        }
        return length == to - from;
    }
}
