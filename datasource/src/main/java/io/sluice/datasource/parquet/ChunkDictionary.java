package io.sluice.datasource.parquet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;

/**
 * A column chunk's dictionary, decoded once into primitive arrays in the form the column's vector
 * takes, for {@link ParquetPageDecoder} to copy entries from by id: a number dictionary as longs
 * (doubles as their bits, timestamps in microseconds; a decimal of more than 18 digits as high and
 * low words), a string dictionary as its UTF-8 bytes, one array plus offsets, never decoded.
 */
final class ChunkDictionary {
    /** A number dictionary: integers as longs, doubles as their bits (the low words of 128-bit decimals); else null. */
    final long[] longs;
    /** A decimal dictionary of more than 18 digits: the high words; else null. */
    final long[] highs;
    /** A string dictionary: entry i is {@code bytes[offsets[i], offsets[i + 1])}; else null. */
    final byte[] bytes;
    final int[] offsets;
    /** Per string entry of at most 8 bytes, those bytes as one word in memory order (else 0). */
    final long[] words;

    private ChunkDictionary(long[] longs, long[] highs, byte[] bytes, int[] offsets, long[] words) {
        this.longs = longs;
        this.highs = highs;
        this.bytes = bytes;
        this.offsets = offsets;
        this.words = words;
    }

    /**
     * The dictionary page of {@code pages}, read first (before any data page), decoded for a column
     * of {@code decoding} ({@code wide}: a decimal of more than 18 digits in bytes); null when the
     * chunk has no dictionary.
     */
    static ChunkDictionary read(PageReader pages, ColumnDescriptor descriptor, ParquetColumnType.Decoding decoding,
            boolean wide) {
        DictionaryPage page = pages.readDictionaryPage();
        if (page == null) {
            return null;
        }
        try {
            Dictionary dictionary = page.getEncoding().initDictionary(descriptor, page);
            int size = dictionary.getMaxId() + 1;
            if (decoding == ParquetColumnType.Decoding.STRING) {
                return strings(dictionary, size);
            }
            if (wide) {
                long[] lows = new long[size];
                long[] highs = new long[size];
                for (int i = 0; i < size; i++) {
                    ByteBuffer bytes = dictionary.decodeToBinary(i).toByteBuffer();
                    PageNumbers.wide(bytes, bytes.position(), bytes.remaining(), lows, highs, i);
                }
                return new ChunkDictionary(lows, highs, null, null, null);
            }
            return new ChunkDictionary(numbers(dictionary, size, descriptor, decoding), null, null, null, null);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the dictionary of " + descriptor, e);
        }
    }

    private static ChunkDictionary strings(Dictionary dictionary, int size) {
        int[] offsets = new int[size + 1];
        long total = 0;
        for (int i = 0; i < size; i++) {
            total += dictionary.decodeToBinary(i).length();
            offsets[i + 1] = (int) Math.min(total, Integer.MAX_VALUE);
        }
        if (total > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("a string dictionary of " + total + " bytes");
        }
        byte[] bytes = new byte[(int) total];
        for (int i = 0; i < size; i++) {
            ByteBuffer value = dictionary.decodeToBinary(i).toByteBuffer();
            value.get(value.position(), bytes, offsets[i], offsets[i + 1] - offsets[i]);
        }
        return new ChunkDictionary(null, null, bytes, offsets, Utf8Writer.firstWords(bytes, offsets));
    }

    /** A number dictionary's entries in the vector's form (doubles as their bits, timestamps in microseconds). */
    private static long[] numbers(Dictionary dictionary, int size, ColumnDescriptor descriptor,
            ParquetColumnType.Decoding decoding) {
        long[] out = new long[size];
        for (int i = 0; i < size; i++) {
            out[i] = switch (descriptor.getPrimitiveType().getPrimitiveTypeName()) {
                case INT32 -> dictionary.decodeToInt(i);
                case INT64 -> dictionary.decodeToLong(i);
                case FLOAT -> Float.floatToRawIntBits(dictionary.decodeToFloat(i));
                case DOUBLE -> Double.doubleToRawLongBits(dictionary.decodeToDouble(i));
                case INT96 -> PageNumbers.int96Micros(dictionary.decodeToBinary(i));
                case BINARY, FIXED_LEN_BYTE_ARRAY -> PageNumbers.unscaled(dictionary.decodeToBinary(i));
                default -> throw new IllegalStateException("a dictionary of " + descriptor.getPrimitiveType());
            };
        }
        if (decoding != ParquetColumnType.Decoding.INT96 && decoding != ParquetColumnType.Decoding.DECIMAL_BYTES) {
            PageNumbers.toVectorForm(decoding, out, size);
        }
        return out;
    }

    /** The average bytes of a string entry (for a first guess of a batch's size). */
    long averageStringBytes() {
        return bytes.length / Math.max(1, offsets.length - 1);
    }
}
