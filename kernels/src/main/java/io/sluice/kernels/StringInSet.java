package io.sluice.kernels;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.VarCharVector;

/**
 * The constants of an IN list over strings, made once per bound expression, and the loops that
 * narrow a selection by membership. On a {@link VarCharVector} a row's UTF-8 bytes are looked up
 * where Arrow keeps them (equal bytes are equal strings; no string is decoded): a row whose length
 * no constant has is rejected by one bit test (q12's {@code l_shipmode IN ('MAIL', 'SHIP')} reads
 * the bytes of 4-byte modes only), any other is hashed and probed in an open-addressing table of
 * the constants; a string of at most 8 bytes (every IN list of TPC-H) as one little-endian word,
 * read, hashed and compared whole. A heap column of strings (a computed value: q22's
 * {@code substring(c_phone, 1, 2)}) is looked up in a hash set of the strings.
 */
public final class StringInSet {
    private final byte[][] constants;
    private final Set<String> strings;
    /** Bit {@code n} is set when some constant is {@code n} bytes long (bit 63: 63 bytes or more). */
    private final long lengths;
    /** Per slot, the index of its constant plus one; 0 when empty. */
    private final int[] slots;
    private final int mask;
    /** The constant of each slot as {@link Utf8Bytes#word}, for constants of at most 8 bytes. */
    private final long[] words;

    private StringInSet(byte[][] constants, Set<String> strings) {
        this.constants = constants;
        this.strings = strings;
        long lengthBits = 0;
        for (byte[] c : constants) {
            lengthBits |= 1L << Math.min(c.length, 63);
        }
        this.lengths = lengthBits;
        this.slots = new int[Integer.highestOneBit(Math.max(2, constants.length) * 2 - 1) << 1];
        this.mask = slots.length - 1;
        this.words = new long[constants.length];
        for (int k = 0; k < constants.length; k++) {
            byte[] c = constants[k];
            for (int b = Math.min(c.length, 8) - 1; b >= 0; b--) {
                words[k] = (words[k] << 8) | (c[b] & 0xFFL);
            }
            int i = (c.length <= 8 ? wordHash(words[k], c.length) : bytesHash(c)) & mask;
            while (slots[i] != 0) {
                i = (i + 1) & mask;
            }
            slots[i] = k + 1;
        }
    }

    /** The set of {@code values} (at least one; duplicates allowed). */
    public static StringInSet of(List<String> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("an IN set needs at least one value");
        }
        Set<String> distinct = new LinkedHashSet<>(values);
        byte[][] constants = new byte[distinct.size()][];
        int k = 0;
        for (String s : distinct) {
            constants[k++] = s.getBytes(StandardCharsets.UTF_8);
        }
        return new StringInSet(constants, new HashSet<>(distinct));
    }

    /**
     * Whether the {@code length} bytes at {@code data + start} are one of the constants, the buffer
     * at {@code data} holding {@code capacity} bytes: a string of at most 8 bytes is read, hashed
     * and compared as one word.
     */
    public boolean contains(long data, long capacity, int start, int length) {
        if ((lengths & (1L << Math.min(length, 63))) == 0) {
            return false;
        }
        if (length <= 8) {
            long word = Utf8Bytes.word(data, capacity, start, length);
            for (int i = wordHash(word, length) & mask;; i = (i + 1) & mask) {
                int entry = slots[i];
                if (entry == 0) {
                    return false;
                }
                if (words[entry - 1] == word && constants[entry - 1].length == length) {
                    return true;
                }
            }
        }
        long address = data + start;
        for (int i = bytesHash(address, length) & mask;; i = (i + 1) & mask) {
            int entry = slots[i];
            if (entry == 0) {
                return false;
            }
            if (equal(address, length, constants[entry - 1])) {
                return true;
            }
        }
    }

    public boolean contains(String value) {
        return strings.contains(value);
    }

    /**
     * Keeps the selected rows of a string vector whose value is not NULL and is in the set
     * ({@code != negated}: not in it); returns how many.
     */
    public int select(VarCharVector vector, boolean negated, int[] selection, int count) {
        if (count == 0) {
            return 0;
        }
        long offsets = vector.getOffsetBuffer().memoryAddress();
        long data = vector.getDataBuffer().memoryAddress();
        long capacity = vector.getDataBuffer().capacity();
        long validity = vector.getNullCount() == 0 ? 0 : vector.getValidityBuffer().memoryAddress();
        int kept = 0;
        for (int k = 0; k < count; k++) {
            int row = selection[k];
            long at = offsets + 4L * row;
            int start = MemoryUtil.getInt(at);
            boolean in = contains(data, capacity, start, MemoryUtil.getInt(at + 4) - start);
            selection[kept] = row;
            kept += in != negated && !InPlaceValues.isNull(validity, row) ? 1 : 0;
        }
        return kept;
    }

    /** As {@link #select(VarCharVector, boolean, int[], int)} over heap strings ({@code nulls} may be null). */
    public int select(String[] values, boolean[] nulls, boolean negated, int[] selection, int count) {
        int kept = 0;
        for (int k = 0; k < count; k++) {
            int row = selection[k];
            boolean isNull = nulls != null && nulls[row];
            selection[kept] = row;
            kept += !isNull && strings.contains(values[row]) != negated ? 1 : 0;
        }
        return kept;
    }

    private static boolean equal(long address, int length, byte[] constant) {
        if (length != constant.length) {
            return false;
        }
        for (int j = 0; j < length; j++) {
            if (MemoryUtil.getByte(address + j) != constant[j]) {
                return false;
            }
        }
        return true;
    }

    /** The hash of a constant of at most 8 bytes, from its word: one multiply, not a loop over its bytes. */
    private static int wordHash(long word, int length) {
        long h = (word + length) * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    // The hash of a longer constant, byte by byte, so the Arrow and the heap forms agree by construction.

    private static int bytesHash(long address, int length) {
        int h = length;
        for (int j = 0; j < length; j++) {
            h = 31 * h + MemoryUtil.getByte(address + j);
        }
        return mix(h);
    }

    private static int bytesHash(byte[] bytes) {
        int h = bytes.length;
        for (byte b : bytes) {
            h = 31 * h + b;
        }
        return mix(h);
    }

    private static int mix(int h) {
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
