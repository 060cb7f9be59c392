package io.sluice.kernels;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * Gathers rows held by an operator (a join's build side) straight into new Arrow vectors: fixed
 * width values from the primitive arrays of a {@link Col}, strings as bytes from a {@link
 * Utf8Bytes} (one byte array plus offsets), so no string is decoded to a {@code String} or encoded
 * back. In every gather a negative row index gives NULL (the side of an outer join's row that found
 * no partner). Each new vector is owned by the caller.
 */
public final class ArrowGather {
    private ArrowGather() {
    }

    /** Rows {@code rows[0..count)} of a heap column as a new vector of {@code field}'s type; -1 is NULL. */
    public static FieldVector gather(Col col, int[] rows, int count, Field field, BufferAllocator allocator) {
        if (col.type.kind() == DataType.Kind.UTF8) {
            // a heap string column (a build side that arrived without Arrow): bytes once, then gathered
            return gather(utf8(col), rows, count, field, allocator);
        }
        if (col.type.isNested()) {
            return col.gatherOrNull(rows, count).write(field.name(), allocator); // payload, in its Java form
        }
        FieldVector out = field.toArrow().createVector(allocator);
        try {
            fill(col, rows, count, out);
        } catch (RuntimeException | Error e) {
            out.close();
            throw e;
        }
        return out;
    }

    private static void fill(Col col, int[] rows, int count, FieldVector out) {
        boolean[] nulls = col.nulls;
        switch (col.type.kind()) {
            case NULL -> {
                ((NullVector) out).setValueCount(count);
                return;
            }
            case BOOL -> {
                BitVector v = (BitVector) out;
                v.allocateNew(count);
                boolean[] values = col.bools;
                for (int i = 0; i < count; i++) {
                    int r = rows[i];
                    if (r >= 0 && (nulls == null || !nulls[r])) {
                        v.set(i, values[r] ? 1 : 0);
                    }
                }
                v.setValueCount(count);
                return;
            }
            default -> {
            }
        }
        BaseFixedWidthVector v = (BaseFixedWidthVector) out;
        v.allocateNew(count);
        long dst = v.getDataBuffer().memoryAddress();
        switch (col.type.kind()) {
            case INT32, DATE32 -> {
                long[] values = col.longs;
                for (int i = 0; i < count; i++) {
                    int r = rows[i];
                    MemoryUtil.putInt(dst + 4L * i, r < 0 ? 0 : (int) values[r]);
                }
            }
            case INT64, TIMESTAMP -> {
                long[] values = col.longs;
                for (int i = 0; i < count; i++) {
                    int r = rows[i];
                    MemoryUtil.putLong(dst + 8L * i, r < 0 ? 0 : values[r]);
                }
            }
            case FLOAT64 -> {
                double[] values = col.doubles;
                for (int i = 0; i < count; i++) {
                    int r = rows[i];
                    MemoryUtil.putLong(dst + 8L * i, r < 0 ? 0 : Double.doubleToRawLongBits(values[r]));
                }
            }
            case DECIMAL -> {
                // 128-bit little-endian two's complement: low word first
                for (int i = 0; i < count; i++) {
                    int r = rows[i];
                    long at = dst + 16L * i;
                    MemoryUtil.putLong(at, r < 0 ? 0 : col.low(r));
                    MemoryUtil.putLong(at + 8, r < 0 ? 0 : col.high(r));
                }
            }
            default -> throw new IllegalStateException("unhandled type " + col.type);
        }
        setValidity(v.getValidityBuffer(), nulls, rows, count);
        v.setValueCount(count);
    }

    /** Rows {@code rows[0..count)} of a string column's bytes as a new {@link VarCharVector}; -1 is NULL. */
    public static VarCharVector gather(Utf8Bytes strings, int[] rows, int count, Field field,
            BufferAllocator allocator) {
        if (field.type().kind() != DataType.Kind.UTF8) {
            throw new IllegalArgumentException("string bytes gathered into a " + field.type() + " field");
        }
        VarCharVector out = (VarCharVector) field.toArrow().createVector(allocator);
        try {
            byte[] data = strings.data();
            int[] offsets = strings.offsets();
            int total = 0;
            for (int i = 0; i < count; i++) {
                int r = rows[i];
                if (r >= 0) {
                    total += offsets[r + 1] - offsets[r];
                }
            }
            // A short string is copied as two 8-byte words (the slack past the last value lets the
            // last one overrun); a longer one, or one near the end of the source array, by a bulk copy.
            out.allocateNew(total + 16L, count);
            long dst = out.getDataBuffer().memoryAddress();
            long outOffsets = out.getOffsetBuffer().memoryAddress();
            MemoryUtil.putInt(outOffsets, 0);
            int wordsEnd = data.length - 16;
            int position = 0;
            for (int i = 0; i < count; i++) {
                int r = rows[i];
                if (r >= 0) {
                    int start = offsets[r];
                    int length = offsets[r + 1] - start;
                    if (length <= 16 && start <= wordsEnd) {
                        MemoryUtil.putLong(dst + position, MemoryUtil.getLong(data, start));
                        MemoryUtil.putLong(dst + position + 8, MemoryUtil.getLong(data, start + 8));
                    } else if (length > 0) {
                        MemoryUtil.copyToMemory(data, start, dst + position, length);
                    }
                    position += length;
                }
                MemoryUtil.putInt(outOffsets + 4L * (i + 1), position);
            }
            setValidity(out.getValidityBuffer(), strings.nulls(), rows, count);
            out.setLastSet(count - 1);
            out.setValueCount(count);
        } catch (RuntimeException | Error e) {
            out.close();
            throw e;
        }
        return out;
    }

    /** Sets validity bits {@code [0, count)}: valid unless the row index is negative or the row NULL. */
    private static void setValidity(ArrowBuf validity, boolean[] nulls, int[] rows, int count) {
        int bytes = (count + 7) >> 3;
        boolean anyMissing = nulls != null;
        for (int i = 0; i < count && !anyMissing; i++) {
            anyMissing = rows[i] < 0;
        }
        if (!anyMissing) {
            validity.setOne(0, bytes);
            return;
        }
        for (int b = 0; b < bytes; b++) {
            int bits = 0;
            int base = b << 3;
            int end = Math.min(8, count - base);
            for (int j = 0; j < end; j++) {
                int r = rows[base + j];
                boolean valid = r >= 0 && (nulls == null || !nulls[r]);
                bits |= valid ? 1 << j : 0;
            }
            validity.setByte(b, bits);
        }
    }

    /** A string vector's rows as bytes, or a heap string column's rows encoded once to UTF-8. */
    public static Utf8Bytes utf8(FieldVector vector, Col heap) {
        return vector instanceof VarCharVector v ? Utf8Bytes.of(v) : utf8(heap);
    }

    /** A heap string column's values encoded to UTF-8, one after another. */
    public static Utf8Bytes utf8(Col col) {
        String[] values = col.strings;
        int n = col.length;
        int[] offsets = new int[n + 1];
        byte[] data = new byte[Math.max(16, n * 8)];
        int position = 0;
        for (int i = 0; i < n; i++) {
            String s = col.isNull(i) ? null : values[i];
            if (s != null) {
                int length = s.length();
                if ((long) position + 3L * length > data.length) {
                    data = java.util.Arrays.copyOf(data, grow(data.length, position + 3L * length));
                }
                int j = 0;
                while (j < length && s.charAt(j) < 0x80) {
                    data[position + j] = (byte) s.charAt(j);
                    j++;
                }
                if (j < length) {
                    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
                    System.arraycopy(bytes, 0, data, position, bytes.length);
                    length = bytes.length;
                }
                position += length;
            }
            offsets[i + 1] = position;
        }
        return new Utf8Bytes(java.util.Arrays.copyOf(data, position), offsets,
                col.nulls == null ? null : col.nulls.clone(), n);
    }

    private static int grow(int current, long needed) {
        long size = Math.max(needed, 2L * current);
        if (needed > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("a string column of more than 2 GiB of bytes cannot be held in one array");
        }
        return (int) Math.min(size, Integer.MAX_VALUE - 16);
    }

    /** The rows of several string columns one after another (offsets rebased). */
    public static Utf8Bytes concat(List<Utf8Bytes> parts) {
        if (parts.size() == 1) {
            return parts.get(0);
        }
        long bytes = 0;
        int rows = 0;
        boolean anyNulls = false;
        for (Utf8Bytes p : parts) {
            bytes += p.length() == 0 ? 0 : p.offsets()[p.length()] - p.offsets()[0];
            rows = Math.addExact(rows, p.length());
            anyNulls |= p.nulls() != null;
        }
        if (bytes > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("a string column of more than 2 GiB of bytes cannot be held in one array");
        }
        byte[] data = new byte[(int) bytes];
        int[] offsets = new int[rows + 1];
        boolean[] nulls = anyNulls ? new boolean[rows] : null;
        int row = 0;
        int position = 0;
        for (Utf8Bytes p : parts) {
            int n = p.length();
            if (n == 0) {
                continue;
            }
            int[] in = p.offsets();
            int base = in[0];
            int length = in[n] - base;
            System.arraycopy(p.data(), base, data, position, length);
            for (int i = 1; i <= n; i++) {
                offsets[row + i] = in[i] - base + position;
            }
            if (p.nulls() != null) {
                System.arraycopy(p.nulls(), 0, nulls, row, n);
            }
            row += n;
            position += length;
        }
        return new Utf8Bytes(data, offsets, nulls, rows);
    }

    /** Rows {@code rows[0..count)} decoded to a heap string column; -1 is NULL. */
    public static Col decode(Utf8Bytes strings, int[] rows, int count) {
        String[] out = new String[count];
        boolean[] outNulls = null;
        byte[] data = strings.data();
        int[] offsets = strings.offsets();
        for (int i = 0; i < count; i++) {
            int r = rows[i];
            if (r < 0 || strings.isNull(r)) {
                if (outNulls == null) {
                    outNulls = new boolean[count];
                }
                outNulls[i] = true;
            } else {
                out[i] = new String(data, offsets[r], offsets[r + 1] - offsets[r], StandardCharsets.UTF_8);
            }
        }
        return Col.ofStrings(out, outNulls);
    }
}
