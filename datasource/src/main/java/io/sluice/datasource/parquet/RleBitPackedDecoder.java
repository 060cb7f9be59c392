package io.sluice.datasource.parquet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Parquet's RLE / bit-packing hybrid encoding (definition levels, dictionary ids), decoded a run
 * at a time into int arrays. Reads from {@code buffer}'s position onward.
 */
final class RleBitPackedDecoder {
    private final ByteBuffer buffer;
    private final int bitWidth;
    private final int byteWidth;
    private final int mask;
    private int runRemaining;
    private boolean packedRun;
    private int repeatedValue;
    private int[] packed = new int[64];
    private int packedPosition;

    RleBitPackedDecoder(ByteBuffer buffer, int bitWidth) {
        if (bitWidth < 0 || bitWidth > 32) {
            throw new IllegalArgumentException("bit width " + bitWidth);
        }
        this.buffer = buffer;
        this.bitWidth = bitWidth;
        this.byteWidth = (bitWidth + 7) / 8;
        this.mask = bitWidth == 32 ? -1 : (1 << bitWidth) - 1;
    }

    /** Decodes the next {@code count} values into {@code out[from..from + count)}. */
    void read(int[] out, int from, int count) {
        int at = from;
        int end = from + count;
        while (at < end) {
            if (runRemaining == 0) {
                readRunHeader();
            }
            int take = Math.min(runRemaining, end - at);
            if (packedRun) {
                System.arraycopy(packed, packedPosition, out, at, take);
                packedPosition += take;
            } else {
                java.util.Arrays.fill(out, at, at + take, repeatedValue);
            }
            at += take;
            runRemaining -= take;
        }
    }

    /**
     * Skips the next {@code count} values when they are all {@code value} in the current repeated
     * run (a page's definition levels without a NULL are one such run), else moves nothing.
     */
    boolean skipRepeated(int value, int count) {
        if (runRemaining == 0 && buffer.hasRemaining()) {
            readRunHeader();
        }
        if (packedRun || repeatedValue != value || runRemaining < count) {
            return false;
        }
        runRemaining -= count;
        return true;
    }

    /**
     * Passes over the next {@code count} values: a bit-packed run wholly inside them is stepped over
     * without unpacking it, a repeated run by its count.
     */
    void skip(int count) {
        int left = count;
        while (left > 0) {
            if (runRemaining == 0) {
                int header = readUnsignedVarInt();
                int groups = header >>> 1;
                if ((header & 1) == 1 && groups * 8 <= left) {
                    buffer.position(buffer.position() + groups * bitWidth); // 8 values take bitWidth bytes
                    left -= groups * 8;
                    continue;
                }
                startRun(header);
            }
            int take = Math.min(runRemaining, left);
            if (packedRun) {
                packedPosition += take;
            }
            runRemaining -= take;
            left -= take;
        }
    }

    private void readRunHeader() {
        startRun(readUnsignedVarInt());
    }

    private void startRun(int header) {
        if ((header & 1) == 0) {
            packedRun = false;
            runRemaining = header >>> 1;
            int value = 0;
            for (int i = 0; i < byteWidth; i++) {
                value |= (buffer.get() & 0xFF) << (8 * i);
            }
            repeatedValue = value;
        } else {
            packedRun = true;
            int values = (header >>> 1) * 8;
            if (packed.length < values) {
                packed = new int[values];
            }
            unpack(values);
            runRemaining = values;
            packedPosition = 0;
        }
        if (runRemaining <= 0) {
            throw new IllegalStateException("empty RLE run");
        }
    }

    /**
     * Values are packed least significant bit first; a run always fills whole bytes, a group of 8
     * values {@code bitWidth} bytes. A group of width up to 16 is one or two little-endian words
     * (8 values of at most 8 bits fill at most 64 bits; 4 of at most 16 bits start at most 4 bits
     * into their first byte), unpacked with constant shifts. Otherwise each value is
     * one little-endian word read at its first byte, shifted and masked (a value of at most 32 bits
     * starts at most 7 bits into its byte, so the word holds it); the last values, whose word would
     * pass the buffer's end, are read a byte at a time.
     */
    private void unpack(int values) {
        int start = buffer.position();
        int[] out = packed;
        int v = 0;
        if (buffer.order() == ByteOrder.LITTLE_ENDIAN) {
            int lastWord = buffer.limit() - Long.BYTES;
            if (bitWidth <= 16) {
                v = unpackGroups(start, values, lastWord);
            }
            long bit = (long) v * bitWidth;
            for (; v < values; v++, bit += bitWidth) {
                int at = start + (int) (bit >>> 3);
                if (at > lastWord) {
                    break;
                }
                out[v] = (int) (buffer.getLong(at) >>> (bit & 7)) & mask;
            }
            if (v == values) {
                buffer.position(start + (int) ((long) values * bitWidth >>> 3));
                return;
            }
            // the rest from the byte where value v starts (v is a multiple of 8 only by chance)
            buffer.position(start + (int) (bit >>> 3));
            unpackBytes(v, values, (int) (bit & 7));
            return;
        }
        unpackBytes(0, values, 0);
    }

    /** Whole groups of 8 values of at most 16 bits while their words lie in the buffer; returns the values unpacked. */
    private int unpackGroups(int start, int values, int lastWord) {
        int[] out = packed;
        int width = bitWidth;
        int m = mask;
        ByteBuffer in = buffer;
        int v = 0;
        if (width <= 8) {
            for (int at = start; v < values && at <= lastWord; v += 8, at += width) {
                long word = in.getLong(at);
                out[v] = (int) word & m;
                out[v + 1] = (int) (word >>> width) & m;
                out[v + 2] = (int) (word >>> 2 * width) & m;
                out[v + 3] = (int) (word >>> 3 * width) & m;
                out[v + 4] = (int) (word >>> 4 * width) & m;
                out[v + 5] = (int) (word >>> 5 * width) & m;
                out[v + 6] = (int) (word >>> 6 * width) & m;
                out[v + 7] = (int) (word >>> 7 * width) & m;
            }
            return v;
        }
        int half = (4 * width) >>> 3; // the byte where value 4 starts
        int halfShift = (4 * width) & 7;
        for (int at = start; v < values && at + half <= lastWord; v += 8, at += width) {
            long word = in.getLong(at);
            out[v] = (int) word & m;
            out[v + 1] = (int) (word >>> width) & m;
            out[v + 2] = (int) (word >>> 2 * width) & m;
            out[v + 3] = (int) (word >>> 3 * width) & m;
            word = in.getLong(at + half) >>> halfShift;
            out[v + 4] = (int) word & m;
            out[v + 5] = (int) (word >>> width) & m;
            out[v + 6] = (int) (word >>> 2 * width) & m;
            out[v + 7] = (int) (word >>> 3 * width) & m;
        }
        return v;
    }

    /** Values {@code [from, values)} a byte at a time, the first starting {@code skip} bits into the current byte. */
    private void unpackBytes(int from, int values, int skip) {
        long bits = 0;
        int held = 0;
        if (skip > 0) {
            bits = (buffer.get() & 0xFF) >>> skip;
            held = 8 - skip;
        }
        int[] out = packed;
        for (int v = from; v < values; v++) {
            while (held < bitWidth) {
                bits |= (long) (buffer.get() & 0xFF) << held;
                held += 8;
            }
            out[v] = (int) bits & mask;
            bits >>>= bitWidth;
            held -= bitWidth;
        }
    }

    private int readUnsignedVarInt() {
        int value = 0;
        int shift = 0;
        int b;
        do {
            b = buffer.get() & 0xFF;
            value |= (b & 0x7F) << shift;
            shift += 7;
        } while ((b & 0x80) != 0);
        return value;
    }
}
