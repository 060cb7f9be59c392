package io.sluice.kernels;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Kernels that read Arrow buffers in place, for batches that arrive as Arrow (a scan, a shuffle
 * fetch): a string {@code LIKE} on the UTF-8 bytes of a {@link VarCharVector}, and the compaction
 * of a batch to selected rows by copying buffers, so that a filter decodes no string and copies
 * each kept value once.
 */
public final class ArrowKernels {
    private ArrowKernels() {
    }

    /**
     * A {@code LIKE} pattern made only of literal text and {@code %}, as UTF-8 byte segments: it
     * matches the same strings on their UTF-8 bytes as on their characters, since UTF-8 encodes
     * each character on its own and no character's encoding starts inside another's. Patterns with
     * {@code _} (one character, a varying number of bytes) or case folding are not handled here.
     */
    public static final class BytePattern {
        private final byte[][] segments;
        private final boolean anchoredStart;
        private final boolean anchoredEnd;

        private BytePattern(byte[][] segments, boolean anchoredStart, boolean anchoredEnd) {
            this.segments = segments;
            this.anchoredStart = anchoredStart;
            this.anchoredEnd = anchoredEnd;
        }

        /** The byte pattern of a LIKE pattern, or null when it holds {@code _} (handled by the caller). */
        public static BytePattern compile(String like) {
            if (like.indexOf('_') >= 0) {
                return null;
            }
            List<byte[]> segments = new ArrayList<>();
            int from = 0;
            while (true) {
                int at = like.indexOf('%', from);
                String segment = at < 0 ? like.substring(from) : like.substring(from, at);
                if (!segment.isEmpty()) {
                    segments.add(segment.getBytes(StandardCharsets.UTF_8));
                }
                if (at < 0) {
                    break;
                }
                from = at + 1;
            }
            boolean anchoredStart = !like.startsWith("%");
            boolean anchoredEnd = !like.endsWith("%") || like.isEmpty();
            return new BytePattern(segments.toArray(new byte[0][]), anchoredStart, anchoredEnd);
        }

        /** Whether the {@code length} bytes at {@code address} (off heap, in an Arrow buffer) match. */
        public boolean matches(long address, int length) {
            long start = address;
            long end = address + length;
            int n = segments.length;
            if (n == 0) {
                return !(anchoredStart && anchoredEnd) || length == 0;
            }
            if (anchoredStart && anchoredEnd && n == 1) {
                byte[] only = segments[0];
                return length == only.length && regionEquals(start, only);
            }
            int first = 0;
            int last = n - 1;
            if (anchoredStart) {
                byte[] s = segments[0];
                if (end - start < s.length || !regionEquals(start, s)) {
                    return false;
                }
                start += s.length;
                first = 1;
            }
            if (anchoredEnd) {
                byte[] s = segments[last];
                if (end - start < s.length || !regionEquals(end - s.length, s)) {
                    return false;
                }
                end -= s.length;
                last--;
            }
            for (int i = first; i <= last; i++) {
                long at = indexOf(start, end, segments[i]);
                if (at < 0) {
                    return false;
                }
                start = at + segments[i].length;
            }
            return true;
        }

        private static boolean regionEquals(long at, byte[] s) {
            for (int i = 0; i < s.length; i++) {
                if (MemoryUtil.getByte(at + i) != s[i]) {
                    return false;
                }
            }
            return true;
        }

        /** The address where {@code s} first starts in {@code [start, end)}, or -1. */
        private static long indexOf(long start, long end, byte[] s) {
            byte head = s[0];
            long limit = end - s.length;
            outer:
            for (long i = start; i <= limit; i++) {
                if (MemoryUtil.getByte(i) != head) {
                    continue;
                }
                for (int j = 1; j < s.length; j++) {
                    if (MemoryUtil.getByte(i + j) != s[j]) {
                        continue outer;
                    }
                }
                return i;
            }
            return -1;
        }
    }

    /** The data bytes of a string vector's rows {@code [0, n)}, copied once to the heap. */
    static byte[] dataBytes(VarCharVector v, int n) {
        int length = n == 0 ? 0 : v.getOffsetBuffer().getInt((long) n * 4);
        byte[] out = new byte[length];
        if (length > 0) {
            MemoryUtil.copyFromMemory(v.getDataBuffer().memoryAddress(), out, 0, length);
        }
        return out;
    }

    /** The offsets of a string vector's rows {@code [0, n]}. */
    static int[] offsets(VarCharVector v, int n) {
        int[] out = new int[n + 1];
        if (n > 0) {
            v.getOffsetBuffer().nioBuffer(0, (n + 1) * 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(out);
        }
        return out;
    }

    /** Per row: NULL, or whether it matches {@code pattern} ({@code != negated}), into a column. */
    public static Col like(VarCharVector v, BytePattern pattern, boolean negated) {
        int n = v.getValueCount();
        int[] selection = new int[n];
        int kept = SelectionKernels.like(v, pattern, negated, selection, SelectionKernels.all(selection, n));
        return SelectionKernels.toBools(selection, kept, n, nulls(v, n));
    }

    /**
     * Per row: NULL, or {@code value cmp constant} on the UTF-8 bytes of a string vector
     * ({@link SelectionKernels#compare(io.sluice.common.types.BinaryOp, VarCharVector, byte[], int[], int)}:
     * orderings only for constants {@link #bytesOrderLikeStrings} accepts).
     */
    public static Col compareConstant(VarCharVector v, byte[] constant, io.sluice.common.types.BinaryOp cmp) {
        int n = v.getValueCount();
        int[] selection = new int[n];
        int kept = SelectionKernels.compare(cmp, v, constant, selection, SelectionKernels.all(selection, n));
        return SelectionKernels.toBools(selection, kept, n, nulls(v, n));
    }

    /**
     * Whether comparing UTF-8 bytes with those of {@code constant} orders as {@link String#compareTo}
     * does: true when the constant holds only characters below U+D800 (at the first difference, a
     * value's surrogate pair or U+E000..U+FFFF character is then greater in both orders).
     */
    public static boolean bytesOrderLikeStrings(String constant) {
        for (int i = 0; i < constant.length(); i++) {
            if (constant.charAt(i) >= 0xD800) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code substring(value, start[, length])} of each row of a string vector, as the string kernel
     * computes it on decoded strings (1-based positions in UTF-16 chars, from {@code from = start - 1}
     * clamped at 0, to {@code end - 1} exclusive clamped to the length): an ASCII row, whose chars
     * are its bytes, yields its slice of bytes without decoding the rest; any other row is decoded.
     */
    public static Col substring(VarCharVector v, long start, Long length) {
        int n = v.getValueCount();
        byte[] data = dataBytes(v, n);
        int[] offsets = offsets(v, n);
        boolean[] nulls = nulls(v, n);
        long end = length == null ? Long.MAX_VALUE : start + length; // exclusive, 1-based
        int from = (int) Math.max(0, Math.min(Integer.MAX_VALUE, start - 1));
        String[] out = new String[n];
        for (int i = 0; i < n; i++) {
            if (nulls != null && nulls[i]) {
                continue;
            }
            int begin = offsets[i];
            int stop = offsets[i + 1];
            boolean ascii = true;
            for (int j = begin; j < stop && ascii; j++) {
                ascii = data[j] >= 0;
            }
            if (ascii) {
                int to = (int) Math.max(0, Math.min(stop - begin, end - 1));
                out[i] = from >= to ? "" : new String(data, begin + from, to - from, StandardCharsets.ISO_8859_1);
            } else {
                String value = new String(data, begin, stop - begin, StandardCharsets.UTF_8);
                int to = (int) Math.max(0, Math.min(value.length(), end - 1));
                out[i] = from >= to ? "" : value.substring(from, to);
            }
        }
        return Col.ofStrings(out, nulls);
    }

    /** Per row whether it is NULL, or null when no row is. */
    public static boolean[] nulls(FieldVector v, int n) {
        if (v.getNullCount() == 0) {
            return null;
        }
        boolean[] nulls = new boolean[n];
        ArrowBuf validity = v.getValidityBuffer();
        for (int i = 0; i < n; i++) {
            nulls[i] = (validity.getByte(i >> 3) & (1 << (i & 7))) == 0;
        }
        return nulls;
    }

    /**
     * Rows {@code selected[0..count)} of {@code root}, as new vectors owned by the caller (from
     * {@code allocator}); the input is not changed.
     */
    public static VectorSchemaRoot gather(VectorSchemaRoot root, int[] selected, int count, BufferAllocator allocator) {
        List<FieldVector> out = new ArrayList<>(root.getFieldVectors().size());
        try {
            for (FieldVector v : root.getFieldVectors()) {
                out.add(gather(v, selected, count, allocator));
            }
        } catch (RuntimeException | Error e) {
            out.forEach(FieldVector::close);
            throw e;
        }
        List<org.apache.arrow.vector.types.pojo.Field> fields = new ArrayList<>(out.size());
        for (FieldVector v : out) {
            fields.add(v.getField());
        }
        return new VectorSchemaRoot(fields, out, count);
    }

    /** Rows {@code selected[0..count)} of {@code v} as a new vector of the same type. */
    public static FieldVector gather(FieldVector v, int[] selected, int count, BufferAllocator allocator) {
        FieldVector out = v.getField().createVector(allocator);
        try {
            if (v instanceof NullVector) {
                out.setValueCount(count);
            } else if (v instanceof VarCharVector s) {
                gatherStrings(s, (VarCharVector) out, selected, count);
            } else if (v instanceof BitVector b) {
                BitVector o = (BitVector) out;
                o.allocateNew(count);
                for (int i = 0; i < count; i++) {
                    int row = selected[i];
                    if (!b.isNull(row)) {
                        o.set(i, b.get(row));
                    }
                }
                o.setValueCount(count);
            } else if (v instanceof BaseFixedWidthVector f) {
                gatherFixed(f, (BaseFixedWidthVector) out, selected, count);
            } else {
                out.allocateNew();
                for (int i = 0; i < count; i++) {
                    out.copyFromSafe(selected[i], i, v);
                }
                out.setValueCount(count);
            }
        } catch (RuntimeException | Error e) {
            out.close();
            throw e;
        }
        return out;
    }

    /**
     * Values of the selected rows copied in order: a run of consecutive rows (a selective filter's
     * clusters, a lenient one's long stretches) as one memory copy, a lone row as one word or two.
     */
    private static void gatherFixed(BaseFixedWidthVector v, BaseFixedWidthVector out, int[] selected, int count) {
        out.allocateNew(count);
        long width = v.getTypeWidth();
        long src = v.getDataBuffer().memoryAddress();
        long dst = out.getDataBuffer().memoryAddress();
        int i = 0;
        while (i < count) {
            int row = selected[i];
            int end = runEnd(selected, i, count);
            long from = src + width * row;
            long to = dst + width * i;
            if (end - i > 1) {
                MemoryUtil.copyMemory(from, to, width * (end - i));
            } else if (width == 4) {
                MemoryUtil.putInt(to, MemoryUtil.getInt(from));
            } else if (width == 8) {
                MemoryUtil.putLong(to, MemoryUtil.getLong(from));
            } else if (width == 16) { // decimal128: two words, not a copy call per value
                MemoryUtil.putLong(to, MemoryUtil.getLong(from));
                MemoryUtil.putLong(to + 8, MemoryUtil.getLong(from + 8));
            } else {
                MemoryUtil.copyMemory(from, to, width);
            }
            i = end;
        }
        gatherValidity(v, out.getValidityBuffer(), selected, count);
        out.setValueCount(count);
    }

    /** The end (exclusive) of the run of consecutive rows starting at {@code selected[from]}. */
    private static int runEnd(int[] selected, int from, int count) {
        int first = selected[from];
        int end = from + 1;
        while (end < count && selected[end] == first + (end - from)) {
            end++;
        }
        return end;
    }

    /** The validity bits of the selected rows, eight rows to an output byte. */
    private static void gatherValidity(FieldVector v, ArrowBuf validity, int[] selected, int count) {
        int bytes = (count + 7) >> 3;
        if (v.getNullCount() == 0) {
            validity.setOne(0, bytes);
            return;
        }
        long in = v.getValidityBuffer().memoryAddress();
        long out = validity.memoryAddress();
        for (int base = 0; base < count; base += 8) {
            int limit = Math.min(8, count - base);
            int bits = 0;
            for (int k = 0; k < limit; k++) {
                int row = selected[base + k];
                bits |= ((MemoryUtil.getByte(in + (row >>> 3)) >>> (row & 7)) & 1) << k;
            }
            MemoryUtil.putByte(out + (base >>> 3), (byte) bits);
        }
    }

    /**
     * Strings of the selected rows: the bytes of a run of consecutive rows as one memory copy, a
     * short lone value as one word; offsets rebased per row.
     */
    private static void gatherStrings(VarCharVector v, VarCharVector out, int[] selected, int count) {
        long offsets = v.getOffsetBuffer().memoryAddress();
        long total = 0;
        for (int i = 0; i < count; i++) {
            long at = offsets + 4L * selected[i];
            total += MemoryUtil.getInt(at + 4) - MemoryUtil.getInt(at);
        }
        out.allocateNew(total + Long.BYTES, count); // slack for a short value written as a whole word
        long src = v.getDataBuffer().memoryAddress();
        long srcWordEnd = v.getDataBuffer().capacity() - Long.BYTES; // a word read from here on would pass the end
        long dst = out.getDataBuffer().memoryAddress();
        long outOffsets = out.getOffsetBuffer().memoryAddress();
        int position = 0;
        MemoryUtil.putInt(outOffsets, 0);
        int i = 0;
        while (i < count) {
            int end = runEnd(selected, i, count);
            long at = offsets + 4L * selected[i];
            int start = MemoryUtil.getInt(at);
            int length = MemoryUtil.getInt(at + 4L * (end - i)) - start;
            if (length <= Long.BYTES && start <= srcWordEnd) {
                // a short value as one word: the bytes past it are overwritten by the next value or lie in the slack
                MemoryUtil.putLong(dst + position, MemoryUtil.getLong(src + start));
            } else if (length > 0) {
                MemoryUtil.copyMemory(src + start, dst + position, length);
            }
            int rebase = position - start;
            for (int k = i; k < end; k++) {
                at += 4;
                MemoryUtil.putInt(outOffsets + 4L * (k + 1), MemoryUtil.getInt(at) + rebase);
            }
            position += length;
            i = end;
        }
        gatherValidity(v, out.getValidityBuffer(), selected, count);
        out.setLastSet(count - 1);
        out.setValueCount(count);
    }
}
