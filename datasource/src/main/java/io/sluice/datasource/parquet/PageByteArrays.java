package io.sluice.datasource.parquet;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import org.apache.parquet.column.Encoding;

/**
 * The byte-array values of one data page encoded DELTA_LENGTH_BYTE_ARRAY (all lengths, then all
 * bytes) or DELTA_BYTE_ARRAY (each value as a prefix of the previous one plus a suffix), decoded
 * whole into one array plus offsets, then taken in order: value {@code i} is
 * {@code bytes[offsets[i] .. offsets[i + 1])}.
 */
final class PageByteArrays {
    final byte[] bytes;
    final int[] offsets;
    private int next;

    private PageByteArrays(byte[] bytes, int[] offsets) {
        this.bytes = requireNonNull(bytes, "bytes is null");
        this.offsets = requireNonNull(offsets, "offsets is null");
    }

    /** Whether {@link #decode} takes pages of this encoding. */
    static boolean takes(Encoding encoding) {
        return encoding == Encoding.DELTA_LENGTH_BYTE_ARRAY || encoding == Encoding.DELTA_BYTE_ARRAY;
    }

    /** The values of a page's value section {@code data} (from its position) in {@code encoding}. */
    static PageByteArrays decode(Encoding encoding, ByteBuffer data) {
        if (encoding == Encoding.DELTA_LENGTH_BYTE_ARRAY) {
            return lengthPrefixed(data);
        }
        if (encoding != Encoding.DELTA_BYTE_ARRAY) {
            throw new IllegalArgumentException("not a delta byte-array encoding: " + encoding);
        }
        long[] prefixes = DeltaBinaryPackedDecoder.decode(data);
        PageByteArrays suffixes = lengthPrefixed(data);
        int count = prefixes.length;
        if (suffixes.count() != count) {
            throw new IllegalStateException("DELTA_BYTE_ARRAY with " + count + " prefixes but " + suffixes.count()
                    + " suffixes");
        }
        int[] offsets = new int[count + 1];
        long total = 0;
        for (int i = 0; i < count; i++) {
            total += prefixes[i] + suffixes.length(i);
            offsets[i + 1] = (int) Math.min(total, Integer.MAX_VALUE);
        }
        if (total > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("a page of " + total + " bytes of values");
        }
        byte[] bytes = new byte[(int) total];
        for (int i = 0; i < count; i++) {
            int prefix = (int) prefixes[i];
            int previousLength = i == 0 ? 0 : offsets[i] - offsets[i - 1];
            if (prefix < 0 || prefix > previousLength) {
                throw new IllegalStateException("DELTA_BYTE_ARRAY prefix of " + prefix + " bytes after a value of "
                        + previousLength);
            }
            if (prefix > 0) {
                System.arraycopy(bytes, offsets[i - 1], bytes, offsets[i], prefix);
            }
            System.arraycopy(suffixes.bytes, suffixes.offsets[i], bytes, offsets[i] + prefix, suffixes.length(i));
        }
        return new PageByteArrays(bytes, offsets);
    }

    private static PageByteArrays lengthPrefixed(ByteBuffer data) {
        long[] lengths = DeltaBinaryPackedDecoder.decode(data);
        int[] offsets = new int[lengths.length + 1];
        long total = 0;
        for (int i = 0; i < lengths.length; i++) {
            if (lengths[i] < 0) {
                throw new IllegalStateException("a byte array of negative length " + lengths[i]);
            }
            total += lengths[i];
            offsets[i + 1] = (int) Math.min(total, Integer.MAX_VALUE);
        }
        if (total > data.remaining()) {
            throw new IllegalStateException("DELTA_LENGTH_BYTE_ARRAY lengths sum to " + total + " bytes but the page has "
                    + data.remaining());
        }
        byte[] bytes = new byte[(int) total];
        data.get(bytes);
        return new PageByteArrays(bytes, offsets);
    }

    int count() {
        return offsets.length - 1;
    }

    int length(int value) {
        return offsets[value + 1] - offsets[value];
    }

    /** The bytes of the next {@code count} values (not taken). */
    long bytesOfNext(int count) {
        int end = Math.min(next + count, count());
        return offsets[end] - offsets[next];
    }

    /** The index of the next of {@code count} values, which are then taken. */
    int take(int count) {
        if (next + count > count()) {
            throw new IllegalStateException("the page has only " + count() + " values");
        }
        int first = next;
        next += count;
        return first;
    }

    /** Passes over the next {@code count} values. */
    void skip(int count) {
        take(count);
    }

    /** The index of the next value, which is then taken. */
    int next() {
        if (next >= count()) {
            throw new IllegalStateException("the page has only " + count() + " values");
        }
        return next++;
    }
}
