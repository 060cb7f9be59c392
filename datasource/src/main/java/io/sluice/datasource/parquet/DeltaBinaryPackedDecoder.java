package io.sluice.datasource.parquet;

import java.nio.ByteBuffer;

/**
 * Parquet's DELTA_BINARY_PACKED encoding (integers, and the lengths of DELTA_LENGTH_BYTE_ARRAY and
 * DELTA_BYTE_ARRAY), decoded whole: a header (block size, miniblocks per block, value count, first
 * value), then blocks of a minimum delta, one bit width per miniblock and the miniblocks' deltas
 * bit-packed least significant bit first. Sums wrap in 64 bits; an INT32 column's values are the low
 * 32 bits, as its writer's 32-bit sums are.
 */
final class DeltaBinaryPackedDecoder {
    private DeltaBinaryPackedDecoder() {
    }

    /**
     * Every value of the encoded run starting at {@code in}'s position, leaving the position after
     * its last miniblock that holds values (where the bytes of a DELTA_LENGTH_BYTE_ARRAY start).
     */
    static long[] decode(ByteBuffer in) {
        int blockSize = readUnsignedVarInt(in);
        int miniblocks = readUnsignedVarInt(in);
        int count = readUnsignedVarInt(in);
        long value = zigZag(readUnsignedVarLong(in));
        if (blockSize <= 0 || miniblocks <= 0 || blockSize % miniblocks != 0 || (blockSize / miniblocks) % 8 != 0
                || count < 0) {
            throw new IllegalStateException("bad DELTA_BINARY_PACKED header: block size " + blockSize + ", "
                    + miniblocks + " miniblocks, " + count + " values");
        }
        int perMiniblock = blockSize / miniblocks;
        long[] out = new long[count];
        if (count == 0) {
            return out;
        }
        out[0] = value;
        int at = 1;
        byte[] widths = new byte[miniblocks];
        while (at < count) {
            long minDelta = zigZag(readUnsignedVarLong(in));
            in.get(widths);
            for (int m = 0; m < miniblocks && at < count; m++) {
                int width = widths[m];
                if (width < 0 || width > 64) {
                    throw new IllegalStateException("bad DELTA_BINARY_PACKED bit width " + width);
                }
                int take = Math.min(perMiniblock, count - at);
                unpack(in, width, out, at, take);
                // the miniblock is stored whole even when the run ends inside it
                in.position(in.position() + perMiniblock * width / 8);
                for (int i = at; i < at + take; i++) {
                    value += minDelta + out[i];
                    out[i] = value;
                }
                at += take;
            }
        }
        return out;
    }

    /**
     * {@code count} values of {@code width} bits from {@code in}'s position (not moved) into
     * {@code out[from..)}: of up to 56 bits, each value is one little-endian word read at its first
     * byte, shifted and masked, in a loop without a branch while the words lie in the buffer; the
     * rest (wider values, the last ones, another byte order) a byte at a time.
     */
    private static void unpack(ByteBuffer in, int width, long[] out, int from, int count) {
        if (width == 0) {
            java.util.Arrays.fill(out, from, from + count, 0);
            return;
        }
        int start = in.position();
        long mask = width == 64 ? -1L : (1L << width) - 1;
        int i = 0;
        if (in.order() == java.nio.ByteOrder.LITTLE_ENDIAN && width <= 56) {
            // values [0, words) start at least 8 bytes before the limit
            long free = (long) in.limit() - Long.BYTES - start;
            long room = free < 0 ? 0 : free * 8 / width + 1;
            int words = (int) Math.max(0, Math.min(count, room));
            long bit = 0;
            for (; i < words; i++, bit += width) {
                out[from + i] = (in.getLong(start + (int) (bit >>> 3)) >>> (bit & 7)) & mask;
            }
        }
        for (long bit = (long) i * width; i < count; i++, bit += width) {
            int at = start + (int) (bit >>> 3);
            int shift = (int) (bit & 7);
            long word = 0;
            int bytes = (shift + width + 7) >>> 3; // at most 9
            for (int b = 0; b < Math.min(bytes, 8); b++) {
                word |= (long) (in.get(at + b) & 0xFF) << (8 * b);
            }
            long v = word >>> shift;
            if (bytes == 9) {
                v |= (long) (in.get(at + 8) & 0xFF) << (64 - shift);
            }
            out[from + i] = v & mask;
        }
    }

    static int readUnsignedVarInt(ByteBuffer in) {
        long value = readUnsignedVarLong(in);
        if (value > Integer.MAX_VALUE) {
            throw new IllegalStateException("a varint of " + value + " where an int is expected");
        }
        return (int) value;
    }

    private static long readUnsignedVarLong(ByteBuffer in) {
        long value = 0;
        int shift = 0;
        int b;
        do {
            b = in.get() & 0xFF;
            value |= (long) (b & 0x7F) << shift;
            shift += 7;
        } while ((b & 0x80) != 0 && shift < 70);
        return value;
    }

    private static long zigZag(long n) {
        return (n >>> 1) ^ -(n & 1);
    }
}
