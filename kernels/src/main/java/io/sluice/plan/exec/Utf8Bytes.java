package io.sluice.plan.exec;

import org.apache.arrow.vector.VarCharVector;

/**
 * A string column as its UTF-8 bytes, read from a {@link VarCharVector} with one bulk copy of the
 * data and offset buffers: row {@code i} is {@code data[offsets[i], offsets[i + 1])}. For kernels
 * that hash or compare strings without decoding them; {@code nulls} is null when no row is NULL.
 */
public record Utf8Bytes(byte[] data, int[] offsets, boolean[] nulls, int length) {
    public static Utf8Bytes of(VarCharVector vector) {
        int n = vector.getValueCount();
        return new Utf8Bytes(ArrowKernels.dataBytes(vector, n), ArrowKernels.offsets(vector, n),
                ArrowKernels.nulls(vector, n), n);
    }

    public boolean isNull(int row) {
        return nulls != null && nulls[row];
    }

    public int start(int row) {
        return offsets[row];
    }

    public int end(int row) {
        return offsets[row + 1];
    }

    /** The 64-bit FNV-1a hash of bytes {@code [from, to)}: the same for a value however it is held. */
    public static long hash(byte[] bytes, int from, int to) {
        long h = 0xcbf29ce484222325L;
        for (int i = from; i < to; i++) {
            h ^= bytes[i] & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }

    /** {@link #hash} of a string's UTF-8 bytes, without encoding it when it is ASCII. */
    public static long hash(String s) {
        long h = 0xcbf29ce484222325L;
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                byte[] bytes = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                return hash(bytes, 0, bytes.length);
            }
            h ^= c;
            h *= 0x100000001b3L;
        }
        return h;
    }
}
