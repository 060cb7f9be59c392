package io.sluice.kernels;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.NullVector;

/**
 * Gathers rows scattered over several Arrow vectors of one type (the chunks a sort buffered) into
 * one new vector, reading and writing the Arrow buffers in place: no value is unpacked into a heap
 * array or decoded, and a string is copied as its bytes. Row {@code i} of the output is row
 * {@code rowOf[i]} of chunk {@code chunkOf[i]}. The sort's gather (its output and its spilled runs).
 */
public final class ArrowChunkGather {
    private ArrowChunkGather() {
    }

    /**
     * One column's chunks with their buffer addresses and whether any of them holds a NULL, read
     * once: a sort gathers every output batch from all its chunks.
     */
    public static final class Chunks {
        private final FieldVector[] vectors;
        private final long[] data;
        private final long[] offsets;
        private final long[] validity;
        private final boolean anyNull;

        public Chunks(FieldVector[] vectors) {
            this.vectors = vectors.clone();
            int n = vectors.length;
            data = new long[n];
            offsets = new long[n];
            validity = new long[n];
            boolean nulls = false;
            for (int c = 0; c < n; c++) {
                FieldVector v = vectors[c];
                if (v instanceof NullVector) {
                    continue;
                }
                validity[c] = v.getValidityBufferAddress();
                if (v instanceof BaseVariableWidthVector) {
                    offsets[c] = v.getOffsetBufferAddress();
                }
                if (!(v instanceof BitVector) && (v instanceof BaseFixedWidthVector || v instanceof BaseVariableWidthVector)) {
                    data[c] = v.getDataBufferAddress();
                }
                nulls |= v.getNullCount() > 0;
            }
            anyNull = nulls;
        }

        /**
         * The bytes rows {@code (chunkOf[i], rowOf[i])}, {@code i} in {@code [0, count)}, hold in their
         * chunks' value buffers when the chunks are strings or binaries (what {@link #gather} will
         * allocate for them), 0 otherwise: a writer that must reserve a gather's memory ahead asks.
         */
        public long variableBytes(int[] chunkOf, int[] rowOf, int count) {
            if (!(vectors[0] instanceof BaseVariableWidthVector)) {
                return 0;
            }
            long total = 0;
            for (int i = 0; i < count; i++) {
                long at = offsets[chunkOf[i]] + 4L * rowOf[i];
                total += MemoryUtil.getInt(at + 4) - MemoryUtil.getInt(at);
            }
            return total;
        }

        /**
         * Rows {@code (chunkOf[i], rowOf[i])} for {@code i} in {@code [0, count)}, as a new vector of
         * the chunks' field allocated from {@code allocator}; the caller owns it.
         */
        public FieldVector gather(int[] chunkOf, int[] rowOf, int count, BufferAllocator allocator) {
            FieldVector out = vectors[0].getField().createVector(allocator);
            try {
                if (out instanceof NullVector nulls) {
                    nulls.setValueCount(count);
                } else if (out instanceof BitVector bits) {
                    gatherBits(vectors, chunkOf, rowOf, count, bits);
                } else if (out instanceof BaseFixedWidthVector fixed) {
                    gatherFixed(this, chunkOf, rowOf, count, fixed);
                } else if (out instanceof BaseVariableWidthVector variable) {
                    gatherVariable(this, chunkOf, rowOf, count, variable);
                } else {
                    // nested vectors (payload): Arrow's generic row copy
                    out.allocateNew();
                    for (int i = 0; i < count; i++) {
                        out.copyFromSafe(rowOf[i], i, vectors[chunkOf[i]]);
                    }
                    out.setValueCount(count);
                }
            } catch (RuntimeException | Error e) {
                out.close();
                throw e;
            }
            return out;
        }
    }

    private static void gatherBits(FieldVector[] chunks, int[] chunkOf, int[] rowOf, int count, BitVector out) {
        out.allocateNew(count);
        for (int i = 0; i < count; i++) {
            BitVector from = (BitVector) chunks[chunkOf[i]];
            int row = rowOf[i];
            if (!from.isNull(row)) {
                out.set(i, from.get(row));
            }
        }
        out.setValueCount(count);
    }

    /** Writes the output's validity bits from the chunks', a byte at a time; all set when no chunk has a NULL. */
    private static void gatherValidity(Chunks from, int[] chunkOf, int[] rowOf, int count, long outValidity) {
        if (!from.anyNull) {
            MemoryUtil.setMemory(outValidity, (count + 7) >>> 3, (byte) 0xFF);
            return;
        }
        long[] validity = from.validity;
        for (int base = 0; base < count; base += 8) {
            int end = Math.min(8, count - base);
            int bits = 0;
            for (int j = 0; j < end; j++) {
                int row = rowOf[base + j];
                bits |= ((MemoryUtil.getByte(validity[chunkOf[base + j]] + (row >>> 3)) >>> (row & 7)) & 1) << j;
            }
            MemoryUtil.putByte(outValidity + (base >>> 3), (byte) bits);
        }
    }

    private static void gatherFixed(Chunks chunks, int[] chunkOf, int[] rowOf, int count, BaseFixedWidthVector out) {
        out.allocateNew(count);
        int width = out.getTypeWidth();
        long[] data = chunks.data;
        long to = out.getDataBufferAddress();
        switch (width) {
            case 4 -> {
                for (int i = 0; i < count; i++) {
                    MemoryUtil.putInt(to + 4L * i, MemoryUtil.getInt(data[chunkOf[i]] + 4L * rowOf[i]));
                }
            }
            case 8 -> {
                for (int i = 0; i < count; i++) {
                    MemoryUtil.putLong(to + 8L * i, MemoryUtil.getLong(data[chunkOf[i]] + 8L * rowOf[i]));
                }
            }
            case 16 -> {
                for (int i = 0; i < count; i++) {
                    long from = data[chunkOf[i]] + 16L * rowOf[i];
                    MemoryUtil.putLong(to + 16L * i, MemoryUtil.getLong(from));
                    MemoryUtil.putLong(to + 16L * i + 8, MemoryUtil.getLong(from + 8));
                }
            }
            default -> {
                for (int i = 0; i < count; i++) {
                    MemoryUtil.copyMemory(data[chunkOf[i]] + (long) width * rowOf[i], to + (long) width * i, width);
                }
            }
        }
        gatherValidity(chunks, chunkOf, rowOf, count, out.getValidityBufferAddress());
        out.setValueCount(count);
    }

    /**
     * Strings (and binaries) as bytes: the output's size is summed first so that it is allocated
     * once, then each value is copied eight bytes at a time and its tail in at most three reads
     * (no native call per row).
     */
    private static void gatherVariable(Chunks chunks, int[] chunkOf, int[] rowOf, int count,
            BaseVariableWidthVector out) {
        long[] offsets = chunks.offsets;
        long[] data = chunks.data;
        // first pass: each value's address and length (one read of the offsets), and the total
        long[] from = new long[count];
        int[] lengths = new int[count];
        long total = 0;
        for (int i = 0; i < count; i++) {
            int c = chunkOf[i];
            long at = offsets[c] + 4L * rowOf[i];
            int start = MemoryUtil.getInt(at);
            int length = MemoryUtil.getInt(at + 4) - start;
            from[i] = data[c] + start;
            lengths[i] = length;
            total += length;
        }
        if (total > Integer.MAX_VALUE) {
            throw new IllegalStateException("a batch of " + count + " rows holds " + total + " string bytes");
        }
        out.allocateNew(Math.max(1, total), count);
        long toOffsets = out.getOffsetBufferAddress();
        long toData = out.getDataBufferAddress();
        int position = 0;
        MemoryUtil.putInt(toOffsets, 0);
        for (int i = 0; i < count; i++) {
            int length = lengths[i];
            long source = from[i];
            long to = toData + position;
            int j = 0;
            for (; j + 8 <= length; j += 8) {
                MemoryUtil.putLong(to + j, MemoryUtil.getLong(source + j));
            }
            // the tail of 0 to 7 bytes: one int, one short, one byte at most, never past the value
            if ((length & 4) != 0) {
                MemoryUtil.putInt(to + j, MemoryUtil.getInt(source + j));
                j += 4;
            }
            if ((length & 2) != 0) {
                MemoryUtil.putShort(to + j, MemoryUtil.getShort(source + j));
                j += 2;
            }
            if ((length & 1) != 0) {
                MemoryUtil.putByte(to + j, MemoryUtil.getByte(source + j));
            }
            position += length;
            MemoryUtil.putInt(toOffsets + 4L * (i + 1), position);
        }
        gatherValidity(chunks, chunkOf, rowOf, count, out.getValidityBufferAddress());
        out.setLastSet(count - 1);
        out.setValueCount(count);
    }
}
