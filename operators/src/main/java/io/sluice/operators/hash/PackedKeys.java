package io.sluice.operators.hash;

import io.sluice.common.types.DataType;
import io.sluice.kernels.InPlaceValues;
import io.sluice.kernels.Utf8Bytes;
import java.util.Arrays;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * Packs a row's whole group key into one long when the key is short: strings of a few bytes
 * (q1's flags, a ship mode, a country code) and at most one 32-bit integer or date. A
 * {@link GroupTable} whose keys pack keeps the packed long inline in its slots, as it does one
 * long key, so a batch's group ids come from column loops over the Arrow buffers and one probe
 * per row: no string hashed, no key compared column by column, no string bytes copied to the heap.
 *
 * <p>Each column has a fixed field: a string of at most {@code maxBytes} bytes is its bytes
 * (little-endian) with its length above them, NULL a length code of its own; an integer is its
 * 32 bits with a NULL bit above. Packing is exact, so two keys pack alike exactly when they are
 * equal (NULL equal to NULL, as grouping wants), and a packed long unpacks to the key.
 */
final class PackedKeys {
    private static final int INT_BITS = 33;

    private final DataType[] types;
    private final int[] shifts;
    /** Per column: the longest string that packs, or -1 for an integer column. */
    private final int[] maxBytes;

    private PackedKeys(DataType[] types, int[] shifts, int[] maxBytes) {
        this.types = types;
        this.shifts = shifts;
        this.maxBytes = maxBytes;
    }

    /** The layout for keys of {@code types}, or null when they do not pack (no string, a wider type, too many columns). */
    static PackedKeys of(DataType[] types) {
        int strings = 0;
        int ints = 0;
        for (DataType t : types) {
            switch (t.kind()) {
                case UTF8 -> strings++;
                case INT32, DATE32 -> ints++;
                default -> {
                    return null;
                }
            }
        }
        if (strings == 0 || ints > 1) {
            return null;
        }
        int stringBits = (64 - INT_BITS * ints) / strings;
        int longest = 0;
        while (fieldBits(longest + 1) <= stringBits) {
            longest++;
        }
        if (longest == 0) {
            return null;
        }
        int[] shifts = new int[types.length];
        int[] maxBytes = new int[types.length];
        int shift = 0;
        for (int c = 0; c < types.length; c++) {
            shifts[c] = shift;
            boolean string = types[c].kind() == DataType.Kind.UTF8;
            maxBytes[c] = string ? longest : -1;
            shift += string ? fieldBits(longest) : INT_BITS;
        }
        return new PackedKeys(types.clone(), shifts, maxBytes);
    }

    /** Bits of a string field of up to {@code bytes} bytes: the bytes, and a length code of 0..bytes or NULL. */
    private static int fieldBits(int bytes) {
        return 8 * bytes + (64 - Long.numberOfLeadingZeros(bytes + 1));
    }

    /**
     * Packs the first {@code rows} rows of the key vectors into {@code out}; false, with {@code out}
     * undefined, when a vector is not of its column's type or a string is too long to pack.
     */
    boolean pack(FieldVector[] vectors, int rows, long[] out) {
        Arrays.fill(out, 0, rows, 0L);
        for (int c = 0; c < vectors.length; c++) {
            FieldVector v = vectors[c];
            if (v.getValueCount() < rows) {
                return false;
            }
            long validity = v.getNullCount() == 0 ? 0 : v.getValidityBuffer().memoryAddress();
            if (maxBytes[c] >= 0) {
                if (!(v instanceof VarCharVector strings) || !packStrings(strings, validity, rows, maxBytes[c], shifts[c], out)) {
                    return false;
                }
            } else if (v instanceof IntVector && types[c].kind() == DataType.Kind.INT32
                    || v instanceof DateDayVector && types[c].kind() == DataType.Kind.DATE32) {
                packInts(v.getDataBuffer().memoryAddress(), validity, rows, shifts[c], out);
            } else {
                return false;
            }
        }
        return true;
    }

    private static boolean packStrings(VarCharVector v, long validity, int rows, int maxBytes, int shift, long[] out) {
        long offsets = v.getOffsetBuffer().memoryAddress();
        long data = v.getDataBuffer().memoryAddress();
        long capacity = v.getDataBuffer().capacity();
        int lengthShift = 8 * maxBytes;
        long nullField = (long) (maxBytes + 1) << lengthShift;
        int start = MemoryUtil.getInt(offsets);
        for (int r = 0; r < rows; r++) {
            int end = MemoryUtil.getInt(offsets + 4L * (r + 1));
            int length = end - start;
            long field;
            if (InPlaceValues.isNull(validity, r)) {
                field = nullField;
            } else if (length > maxBytes) {
                return false;
            } else {
                field = Utf8Bytes.word(data, capacity, start, length) | ((long) length << lengthShift);
            }
            out[r] |= field << shift;
            start = end;
        }
        return true;
    }

    private static void packInts(long data, long validity, int rows, int shift, long[] out) {
        for (int r = 0; r < rows; r++) {
            long field = InPlaceValues.isNull(validity, r) ? 1L << 32 : MemoryUtil.getInt(data + 4L * r) & 0xFFFF_FFFFL;
            out[r] |= field << shift;
        }
    }

    /** Appends the key {@code packed} unpacks to as group {@code id} of the key columns. */
    void append(long packed, int id, KeyStore[] keys) {
        for (int c = 0; c < keys.length; c++) {
            long field = packed >>> shifts[c];
            int longest = maxBytes[c];
            if (longest < 0) {
                boolean isNull = (field & (1L << 32)) != 0;
                keys[c].appendLong(id, (int) field, isNull);
                continue;
            }
            int length = (int) (field >>> (8 * longest)) & ((1 << (fieldBits(longest) - 8 * longest)) - 1);
            byte[] bytes = new byte[Math.min(length, longest)];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) (field >>> (8 * i));
            }
            keys[c].appendString(id, bytes, 0, bytes.length, length > longest);
        }
    }
}
