package io.sluice.kernels;

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
}
