package io.sluice.operators.hash;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Field;
import io.sluice.kernels.Col;
import io.sluice.kernels.KeyHash;
import io.sluice.kernels.Utf8Bytes;
import io.sluice.operators.memory.HeapSize;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * One key column of a {@link GroupTable}: each group's key by group id, in a typed array for the
 * key's form (long, 128-bit decimal, double, boolean, UTF-8 bytes). Appends a row's key, compares a
 * row with a group's key, and gives the keys back as heap columns or Arrow vectors.
 */
final class KeyStore {
    private final DataType type;
    private long[] longs;
    private double[] doubles;
    private boolean[] bools;
    /** High words of a decimal key of precision 19 to 38 (low words in {@code longs}). */
    private long[] highs;
    private boolean[] nulls = new boolean[256];
    // String keys as UTF-8 bytes, group after group: group id's bytes are [ends[id - 1], ends[id]).
    private byte[] utf8;
    private int[] utf8Ends;
    private int utf8Used;
    // For string keys that come as Strings: per group, the last String instance that compared
    // equal to its key (made on first use). Rows of a dictionary-decoded column share their
    // instances, so most compares end at the identity check instead of comparing chars with
    // bytes. Not kept for a group's first row: a table of distinct keys (a final phase) keeps
    // no Strings alive.
    private String[] knownEqual;
    private long knownEqualBytes;

    KeyStore(DataType type) {
        this.type = type;
        switch (type.kind()) {
            case FLOAT64 -> doubles = new double[256];
            case BOOL, NULL -> bools = new boolean[256];
            case UTF8 -> {
                utf8 = new byte[4096];
                utf8Ends = new int[256];
            }
            default -> longs = new long[256];
        }
        if (type.isWideDecimal()) {
            highs = new long[256];
        }
    }

    private void grow(int id) {
        if (id == nulls.length) {
            int size = id * 2;
            nulls = Arrays.copyOf(nulls, size);
            if (longs != null) longs = Arrays.copyOf(longs, size);
            if (highs != null) highs = Arrays.copyOf(highs, size);
            if (doubles != null) doubles = Arrays.copyOf(doubles, size);
            if (bools != null) bools = Arrays.copyOf(bools, size);
            if (utf8Ends != null) utf8Ends = Arrays.copyOf(utf8Ends, size);
            if (knownEqual != null) knownEqual = Arrays.copyOf(knownEqual, size);
        }
    }

    /**
     * Remembers {@code s} as equal to group {@code id}'s key, in place of the one before (the
     * latest dictionary's instance is the one the next rows share); its memory is counted, as
     * it is kept alive.
     */
    private void rememberEqual(int id, String s) {
        if (knownEqual == null) {
            knownEqual = new String[nulls.length];
        }
        String replaced = knownEqual[id];
        knownEqual[id] = s;
        knownEqualBytes += HeapSize.string(s) - (replaced == null ? 0 : HeapSize.string(replaced));
    }

    /** Reads group {@code id}'s stored key (its last byte, for a string), to have it in cache; any value. */
    long touch(int id) {
        if (utf8 != null) {
            int end = utf8Ends[id];
            return end + utf8[Math.max(0, end - 1)];
        }
        return longs != null ? longs[id] : 0;
    }

    private int utf8Start(int id) {
        return id == 0 ? 0 : utf8Ends[id - 1];
    }

    private void appendUtf8(int id, byte[] bytes, int from, int to) {
        int length = to - from;
        if (utf8Used + length > utf8.length) {
            utf8 = Arrays.copyOf(utf8, Math.max(utf8.length * 2, utf8Used + length));
        }
        System.arraycopy(bytes, from, utf8, utf8Used, length);
        utf8Used += length;
        utf8Ends[id] = utf8Used;
    }

    /** Appends a string key that arrives as UTF-8 bytes. */
    void append(int id, Utf8Bytes c, int row) {
        boolean isNull = c.isNull(row);
        appendString(id, c.data(), isNull ? 0 : c.start(row), isNull ? 0 : c.end(row), isNull);
    }

    /** Appends the string key {@code bytes[from, to)} (UTF-8), or NULL. */
    void appendString(int id, byte[] bytes, int from, int to, boolean isNull) {
        grow(id);
        if (isNull) {
            nulls[id] = true;
            utf8Ends[id] = utf8Used;
            return;
        }
        appendUtf8(id, bytes, from, to);
    }

    boolean equalsRow(int id, Utf8Bytes c, int row) {
        boolean rowNull = c.isNull(row);
        if (rowNull || nulls[id]) {
            return rowNull && nulls[id];
        }
        return KeyHash.equalBytes(utf8, utf8Start(id), utf8Ends[id], c.data(), c.start(row), c.end(row));
    }

    /** Appends a long-backed key (of at most 18 digits), or NULL. */
    void appendLong(int id, long key, boolean isNull) {
        grow(id);
        if (isNull) {
            nulls[id] = true;
        } else {
            longs[id] = key;
        }
    }

    void append(int id, Col c, int row) {
        grow(id);
        if (c.isNull(row)) {
            nulls[id] = true;
            if (utf8Ends != null) {
                utf8Ends[id] = utf8Used;
            }
            return;
        }
        switch (type.kind()) {
            case FLOAT64 -> doubles[id] = c.doubles[row];
            case BOOL, NULL -> bools[id] = c.bools[row];
            case UTF8 -> {
                byte[] bytes = c.strings[row].getBytes(StandardCharsets.UTF_8);
                appendUtf8(id, bytes, 0, bytes.length);
            }
            default -> {
                if (highs != null) {
                    highs[id] = c.high(row);
                    longs[id] = c.low(row);
                } else {
                    longs[id] = c.longs[row];
                }
            }
        }
    }

    public long heapBytes() {
        int n = nulls.length;
        long values = utf8 != null ? HeapSize.ints(n) + utf8.length + 16
                + (knownEqual != null ? HeapSize.references(n) + knownEqualBytes : 0)
                : longs != null || doubles != null ? HeapSize.longs(n) * (highs != null ? 2 : 1) : HeapSize.booleans(n);
        return HeapSize.booleans(n) + values;
    }

    /**
     * Whether row {@code row} of {@code c} equals group {@code id}'s key. {@code remember}: a
     * String found equal is kept for the identity check (grouping, whose table counts it); a
     * lookup (a join's probe, whose table was reserved once when built) keeps nothing.
     */
    boolean equalsRow(int id, Col c, int row, boolean remember) {
        if (highs != null || c.isWide()) {
            return equalsWide(id, c, row); // also a probe of another precision (one scale) against these keys
        }
        if (longs != null && c.nulls == null) {
            return !nulls[id] && longs[id] == c.longs[row];
        }
        boolean rowNull = c.isNull(row);
        if (rowNull || nulls[id]) {
            return rowNull && nulls[id];
        }
        return switch (type.kind()) {
            case FLOAT64 -> Double.compare(doubles[id] == 0.0 ? 0.0 : doubles[id],
                    c.doubles[row] == 0.0 ? 0.0 : c.doubles[row]) == 0;
            case BOOL, NULL -> bools[id] == c.bools[row];
            case UTF8 -> equalsString(id, c.strings[row], remember);
            default -> longs[id] == c.longs[row];
        };
    }

    private boolean equalsString(int id, String s, boolean remember) {
        if (knownEqual != null && knownEqual[id] == s) {
            return true;
        }
        if (!KeyHash.equalsUtf8(s, utf8, utf8Start(id), utf8Ends[id])) {
            return false;
        }
        if (remember) {
            rememberEqual(id, s);
        }
        return true;
    }

    private boolean equalsWide(int id, Col c, int row) {
        boolean rowNull = c.isNull(row);
        if (rowNull || nulls[id]) {
            return rowNull && nulls[id];
        }
        long high = highs != null ? highs[id] : longs[id] >> 63;
        return high == c.high(row) && longs[id] == c.low(row);
    }

    /**
     * Folds the keys of groups {@code [0, count)} into {@code hashes} as {@link KeyHash#hashInto}
     * folds a batch's key column: string keys from their stored bytes, as a row of bytes is hashed.
     */
    void hashInto(long[] hashes, int count) {
        if (utf8 == null) {
            KeyHash.hashInto(toCol(0, count), hashes, count);
            return;
        }
        int[] offsets = new int[count + 1];
        System.arraycopy(utf8Ends, 0, offsets, 1, count);
        KeyHash.hashInto(new Utf8Bytes(utf8, offsets, nulls, count), hashes, count);
    }

    /** Groups {@code [from, from + count)} as a heap column (string keys decoded here). */
    Col toCol(int from, int count) {
        boolean[] outNulls = Arrays.copyOfRange(nulls, from, from + count);
        if (highs != null) {
            return Col.ofInt128(type, Arrays.copyOfRange(highs, from, from + count),
                    Arrays.copyOfRange(longs, from, from + count), outNulls);
        }
        return switch (type.kind()) {
            case FLOAT64 -> Col.ofDoubles(Arrays.copyOfRange(doubles, from, from + count), outNulls);
            case BOOL, NULL -> Col.ofBools(Arrays.copyOfRange(bools, from, from + count), outNulls)
                    .withType(type);
            case UTF8 -> {
                String[] strings = new String[count];
                for (int i = 0; i < count; i++) {
                    int id = from + i;
                    if (!nulls[id]) {
                        int start = utf8Start(id);
                        strings[i] = new String(utf8, start, utf8Ends[id] - start, StandardCharsets.UTF_8);
                    }
                }
                yield Col.ofStrings(strings, outNulls);
            }
            default -> Col.ofLongs(type, Arrays.copyOfRange(longs, from, from + count), outNulls);
        };
    }

    /**
     * Groups {@code [from, from + count)} as a new Arrow vector owned by the caller: string keys
     * copied as bytes (one bulk copy of the data, offsets rebased), never decoded.
     */
    FieldVector toVector(int from, int count, String name, BufferAllocator allocator) {
        if (utf8 == null) {
            return toCol(from, count).write(name, allocator);
        }
        VarCharVector v = (VarCharVector) new Field(name, type).toArrow().createVector(allocator);
        try {
            int start = utf8Start(from);
            int bytes = count == 0 ? 0 : utf8Ends[from + count - 1] - start;
            v.allocateNew(Math.max(1, bytes), Math.max(1, count));
            if (bytes > 0) {
                MemoryUtil.copyToMemory(utf8, start, v.getDataBuffer().memoryAddress(), bytes);
            }
            ArrowBuf offsets = v.getOffsetBuffer();
            ArrowBuf validity = v.getValidityBuffer();
            offsets.setInt(0, 0);
            for (int i = 0; i < count; i++) {
                offsets.setInt((long) (i + 1) * 4, utf8Ends[from + i] - start);
                if (!nulls[from + i]) {
                    BitVectorHelper.setBit(validity, i);
                }
            }
            v.setLastSet(count - 1);
            v.setValueCount(count);
            return v;
        } catch (RuntimeException e) {
            v.close();
            throw e;
        }
    }
}
