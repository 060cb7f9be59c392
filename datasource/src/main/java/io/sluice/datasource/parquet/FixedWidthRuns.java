package io.sluice.datasource.parquet;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BitVectorHelper;

/**
 * Writes a run of decoded values into a fixed-width vector's data buffer, one loop per vector width
 * (a bit, 4, 8 or 16 bytes) and per layout (consecutive rows, or the rows of the non-NULL values),
 * so the choice is made once per run and the loops hold no call and no branch per value.
 */
final class FixedWidthRuns {
    private FixedWidthRuns() {
    }

    /**
     * Writes {@code values[0..count)} as rows {@code present[i]} (or {@code at + i} when
     * {@code present} is null) of the vector whose data starts at {@code data}: the low bit as a
     * boolean (width 0), the low 4 bytes, 8 bytes, or a 16-byte decimal sign-extended.
     */
    static void scatter(long data, int width, int[] present, int at, long[] values, int count) {
        switch (width) {
            case 4 -> {
                if (present == null) {
                    long address = data + 4L * at;
                    for (int i = 0; i < count; i++) {
                        MemoryUtil.putInt(address + 4L * i, (int) values[i]);
                    }
                } else {
                    for (int i = 0; i < count; i++) {
                        MemoryUtil.putInt(data + 4L * present[i], (int) values[i]);
                    }
                }
            }
            case 8 -> {
                if (present == null) {
                    long address = data + 8L * at;
                    for (int i = 0; i < count; i++) {
                        MemoryUtil.putLong(address + 8L * i, values[i]);
                    }
                } else {
                    for (int i = 0; i < count; i++) {
                        MemoryUtil.putLong(data + 8L * present[i], values[i]);
                    }
                }
            }
            case 16 -> {
                for (int i = 0; i < count; i++) {
                    long address = data + 16L * (present == null ? at + i : present[i]);
                    long value = values[i];
                    MemoryUtil.putLong(address, value);
                    MemoryUtil.putLong(address + 8, value >> 63);
                }
            }
            case 0 -> {
                for (int i = 0; i < count; i++) {
                    int row = present == null ? at + i : present[i];
                    long address = data + (row >>> 3);
                    byte bit = (byte) ((values[i] & 1) << (row & 7));
                    MemoryUtil.putByte(address, (byte) (MemoryUtil.getByte(address) | bit));
                }
            }
            default -> throw new IllegalArgumentException("a vector of " + width + "-byte values");
        }
    }

    /** Writes 128-bit values {@code low[i]}, {@code high[i]} as rows {@code present[i]} (or {@code at + i}) of a decimal vector. */
    static void scatterWide(long data, int[] present, int at, long[] low, long[] high, int count) {
        for (int i = 0; i < count; i++) {
            long address = data + 16L * (present == null ? at + i : present[i]);
            MemoryUtil.putLong(address, low[i]);
            MemoryUtil.putLong(address + 8, high[i]);
        }
    }

    /** Whether {@link #scatterLookups} writes vectors of {@code width}-byte values. */
    static boolean scattersLookups(int width) {
        return width == 4 || width == 8 || width == 16;
    }

    /**
     * {@link #scatter} of {@code dictionary[ids[i]]}: a dictionary-encoded run written in one pass,
     * without the values between ({@link #gather} then {@link #scatter} went through a buffer
     * twice). Widths 4, 8 and 16 (a decimal, sign-extended) only ({@link #scattersLookups}).
     */
    static void scatterLookups(long data, int width, int[] present, int at, long[] dictionary, int[] ids, int count) {
        if (width == 4) {
            if (present == null) {
                long address = data + 4L * at;
                for (int i = 0; i < count; i++) {
                    MemoryUtil.putInt(address + 4L * i, (int) dictionary[ids[i]]);
                }
            } else {
                for (int i = 0; i < count; i++) {
                    MemoryUtil.putInt(data + 4L * present[i], (int) dictionary[ids[i]]);
                }
            }
        } else if (width == 8) {
            if (present == null) {
                long address = data + 8L * at;
                for (int i = 0; i < count; i++) {
                    MemoryUtil.putLong(address + 8L * i, dictionary[ids[i]]);
                }
            } else {
                for (int i = 0; i < count; i++) {
                    MemoryUtil.putLong(data + 8L * present[i], dictionary[ids[i]]);
                }
            }
        } else if (width == 16) {
            for (int i = 0; i < count; i++) {
                long address = data + 16L * (present == null ? at + i : present[i]);
                long value = dictionary[ids[i]];
                MemoryUtil.putLong(address, value);
                MemoryUtil.putLong(address + 8, value >> 63);
            }
        } else {
            throw new IllegalArgumentException("dictionary lookups into a vector of " + width + "-byte values");
        }
    }

    /** {@code out[i] = dictionary[ids[i]]} for {@code i < count}. */
    static void gather(long[] dictionary, int[] ids, long[] out, int count) {
        for (int i = 0; i < count; i++) {
            out[i] = dictionary[ids[i]];
        }
    }

    /** Sets bits {@code [from, from + count)} of {@code bits}: the partial bytes bit by bit, whole bytes at once. */
    static void setBits(ArrowBuf bits, int from, int count) {
        int end = from + count;
        int i = from;
        while (i < end && (i & 7) != 0) {
            BitVectorHelper.setBit(bits, i++);
        }
        int wholeBytes = (end - i) >>> 3;
        if (wholeBytes > 0) {
            bits.setOne(i >>> 3, wholeBytes);
            i += wholeBytes << 3;
        }
        while (i < end) {
            BitVectorHelper.setBit(bits, i++);
        }
    }
}
