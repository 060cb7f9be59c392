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
     * Values are packed least significant bit first; a run always fills whole bytes. Each value is
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
            long bit = 0;
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
