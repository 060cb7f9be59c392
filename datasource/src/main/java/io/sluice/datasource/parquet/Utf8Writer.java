package io.sluice.datasource.parquet;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.VarCharVector;

/**
 * Writes strings' UTF-8 bytes into a {@link VarCharVector} a row at a time, rows in increasing
 * order; rows skipped are NULL. {@link ParquetPageDecoder}'s output for a string column; a final
 * class of its own, so its calls stay as direct (and inlined) as when it was nested. The data buffer is sized by {@link #reserve} (at least doubling).
 */
final class Utf8Writer {
    final VarCharVector vector;
    private ArrowBuf data;
    private final ArrowBuf offsets;
    private final ArrowBuf validity;
    private int end; // bytes written
    private int next; // the first row whose end offset is not written yet

    Utf8Writer(org.apache.arrow.vector.types.pojo.Field field, BufferAllocator allocator, int rows, long bytes) {
        vector = new VarCharVector(field, allocator);
        try {
            vector.allocateNew(Math.max(bytes, 64), rows);
        } catch (RuntimeException | Error e) {
            vector.close();
            throw e;
        }
        data = vector.getDataBuffer();
        offsets = vector.getOffsetBuffer();
        validity = vector.getValidityBuffer();
        validity.setZero(0, validity.capacity()); // every row NULL until written
        offsets.setInt(0, 0);
    }

    /** Makes room for {@code bytes} more bytes. */
    void reserve(long bytes) {
        long needed = end + bytes;
        if (needed > Integer.MAX_VALUE) {
            throw new IllegalStateException("a batch of strings over 2 GB");
        }
        if (needed > data.capacity()) {
            long doubled = 2 * data.capacity();
            vector.reallocDataBuffer(doubled <= Integer.MAX_VALUE ? Math.max(needed, doubled) : needed);
            data = vector.getDataBuffer();
        }
    }

    private void startRow(int row) {
        ArrowBuf o = offsets;
        while (next < row) { // NULL rows: empty, not valid
            o.setInt(4L * ++next, end);
        }
        BitVectorHelper.setBit(validity, row);
    }

    void put(int row, byte[] bytes, int from, int length) {
        startRow(row);
        data.setBytes(end, bytes, from, length);
        end += length;
        offsets.setInt(4L * (row + 1), end);
        next = row + 1;
    }

    /**
     * Rows {@code [first, first + count)}, none NULL, as dictionary entries {@code ids[0, count)}:
     * the offsets and bytes written straight to the buffers (an entry of at most 8 bytes as one
     * word: the caller reserved 8 bytes of slack), the validity bits set a byte at a time.
     */
    void putDictionaryRun(int first, int count, int[] ids, byte[] dictionary, int[] entryOffsets, long[] words) {
        if (count == 0) {
            return;
        }
        startRow(first);
        long dataAddress = data.memoryAddress();
        long offsetAddress = offsets.memoryAddress();
        int position = end;
        for (int i = 0; i < count; i++) {
            int id = ids[i];
            int from = entryOffsets[id];
            int length = entryOffsets[id + 1] - from;
            if (length <= Long.BYTES) {
                MemoryUtil.putLong(dataAddress + position, words[id]);
            } else {
                MemoryUtil.copyToMemory(dictionary, from, dataAddress + position, length);
            }
            position += length;
            MemoryUtil.putInt(offsetAddress + 4L * (first + i + 1), position);
        }
        end = position;
        FixedWidthRuns.setBits(validity, first + 1, count - 1); // startRow set the first
        next = first + count;
    }

    /**
     * Rows {@code [first, first + count)}, none NULL, as values {@code [from, from + count)} of a
     * page decoded whole (value {@code v} is {@code bytes[valueOffsets[v] .. valueOffsets[v + 1])}, the values
     * contiguous): their bytes in one copy, the offsets shifted to this vector's. The caller reserved
     * the bytes.
     */
    void putContiguousRun(int first, int count, byte[] bytes, int[] valueOffsets, int from) {
        if (count == 0) {
            return;
        }
        startRow(first);
        int base = valueOffsets[from];
        int length = valueOffsets[from + count] - base;
        MemoryUtil.copyToMemory(bytes, base, data.memoryAddress() + end, length);
        long offsetAddress = offsets.memoryAddress() + 4L * (first + 1);
        int shift = end - base;
        for (int i = 0; i < count; i++) {
            MemoryUtil.putInt(offsetAddress + 4L * i, valueOffsets[from + i + 1] + shift);
        }
        end += length;
        FixedWidthRuns.setBits(validity, first + 1, count - 1); // startRow set the first
        next = first + count;
    }

    /**
     * Rows {@code [first, first + count)}, none NULL, as PLAIN byte arrays (a 4-byte little-endian
     * length, then the bytes) of {@code page} from {@code position}; returns the position after
     * them. The caller reserved the bytes.
     */
    int putPlainRun(int first, int count, byte[] page, int position) {
        if (count == 0) {
            return position;
        }
        startRow(first);
        long dataAddress = data.memoryAddress();
        long offsetAddress = offsets.memoryAddress() + 4L * (first + 1);
        int p = position;
        int e = end;
        for (int i = 0; i < count; i++) {
            int length = (int) LITTLE_ENDIAN_INT.get(page, p);
            MemoryUtil.copyToMemory(page, p + 4, dataAddress + e, length);
            e += length;
            p += 4 + length;
            MemoryUtil.putInt(offsetAddress + 4L * i, e);
        }
        end = e;
        FixedWidthRuns.setBits(validity, first + 1, count - 1); // startRow set the first
        next = first + count;
        return p;
    }

    private static final VarHandle LITTLE_ENDIAN_INT = MethodHandles.byteArrayViewVarHandle(int[].class,
            ByteOrder.LITTLE_ENDIAN);

    void put(int row, ByteBuffer bytes, int from, int length) {
        startRow(row);
        data.setBytes(end, bytes, from, length);
        end += length;
        offsets.setInt(4L * (row + 1), end);
        next = row + 1;
    }

    VarCharVector finish(int rows) {
        while (next < rows) {
            offsets.setInt(4L * ++next, end);
        }
        vector.setLastSet(rows - 1);
        vector.setValueCount(rows);
        return vector;
    }

    /** Per entry of at most 8 bytes, its bytes as one word in memory order, so a row copies one word. */
    static long[] firstWords(byte[] bytes, int[] offsets) {
        long[] words = new long[offsets.length - 1];
        for (int e = 0; e < words.length; e++) {
            int length = offsets[e + 1] - offsets[e];
            if (length <= Long.BYTES) {
                long word = 0;
                for (int b = length - 1; b >= 0; b--) {
                    word = (word << 8) | (bytes[offsets[e] + b] & 0xFFL);
                }
                words[e] = MemoryUtil.LITTLE_ENDIAN ? word : Long.reverseBytes(word);
            }
        }
        return words;
    }
}
