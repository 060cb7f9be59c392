package io.sluice.kernels;

import org.apache.arrow.memory.util.MemoryUtil;
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

    /**
     * The {@code length} (at most 8) bytes at {@code data + start} as a little-endian long, zero
     * above them: one word read when the buffer of {@code capacity} bytes at {@code data} holds 8
     * bytes from {@code start}, else byte by byte. Short strings pack, hash and compare as one long.
     */
    public static long word(long data, long capacity, int start, int length) {
        if (start + 8L <= capacity) {
            return length == 8 ? MemoryUtil.getLong(data + start) : MemoryUtil.getLong(data + start) & ((1L << (8 * length)) - 1);
        }
        long word = 0;
        for (int i = 0; i < length; i++) {
            word |= (MemoryUtil.getByte(data + start + i) & 0xFFL) << (8 * i);
        }
        return word;
    }
}
