package io.sluice.datasource.parquet;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.TemporalValues;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The values of one data page of a number, boolean, timestamp or decimal column whose stored form
 * is not the vector's (FLOAT, unsigned, millisecond and nanosecond timestamps, INT96, decimals in
 * bytes, booleans) or whose encoding is not PLAIN (DELTA_BINARY_PACKED, BYTE_STREAM_SPLIT, RLE
 * booleans, delta byte arrays of decimals), read a run at a time into longs in the vector's form:
 * integers and dates as they are, doubles as their bits, timestamps in microseconds, decimals
 * unscaled, booleans 0 or 1; decimals wider than 18 digits as two longs ({@link #readWide}). The
 * per-encoding and per-type choice is made once per run.
 */
final class PageNumbers {
    private enum Source { PLAIN, PLAIN_BITS, DECODED, BYTE_STREAM_SPLIT, RLE, BYTE_ARRAYS }

    private final Source source;
    private final ParquetColumnType.Decoding decoding;
    private final PrimitiveTypeName physical;
    private final int typeLength;
    private final ByteBuffer in;
    private long[] decoded; // DELTA_BINARY_PACKED, whole
    private PageByteArrays byteArrays;
    private RleBitPackedDecoder rle;
    private int[] rleBuffer = new int[0];
    private int streamCount; // BYTE_STREAM_SPLIT: values in the page
    private int cursor; // values taken

    private PageNumbers(Source source, ParquetColumnType.Decoding decoding, ColumnDescriptor descriptor, ByteBuffer in) {
        this.source = requireNonNull(source, "source is null");
        this.decoding = requireNonNull(decoding, "decoding is null");
        this.physical = descriptor.getPrimitiveType().getPrimitiveTypeName();
        this.typeLength = descriptor.getPrimitiveType().getTypeLength();
        this.in = requireNonNull(in, "in is null");
    }

    /** The values section {@code data} (little-endian, from its position) of a page in {@code encoding}. */
    static PageNumbers of(Encoding encoding, ByteBuffer data, ColumnDescriptor descriptor,
            ParquetColumnType.Decoding decoding) {
        PrimitiveTypeName physical = descriptor.getPrimitiveType().getPrimitiveTypeName();
        switch (encoding) {
            case PLAIN -> {
                return new PageNumbers(physical == PrimitiveTypeName.BOOLEAN ? Source.PLAIN_BITS : Source.PLAIN,
                        decoding, descriptor, data);
            }
            case DELTA_BINARY_PACKED -> {
                PageNumbers page = new PageNumbers(Source.DECODED, decoding, descriptor, data);
                page.decoded = DeltaBinaryPackedDecoder.decode(data);
                return page;
            }
            case BYTE_STREAM_SPLIT -> {
                PageNumbers page = new PageNumbers(Source.BYTE_STREAM_SPLIT, decoding, descriptor, data);
                page.streamCount = data.remaining() / page.storedWidth();
                return page;
            }
            case RLE -> {
                if (physical != PrimitiveTypeName.BOOLEAN) {
                    break;
                }
                int length = data.getInt();
                ByteBuffer bits = data.slice().order(ByteOrder.LITTLE_ENDIAN);
                bits.limit(length);
                PageNumbers page = new PageNumbers(Source.RLE, decoding, descriptor, data);
                page.rle = new RleBitPackedDecoder(bits, 1);
                return page;
            }
            case DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY -> {
                if (decoding != ParquetColumnType.Decoding.DECIMAL_BYTES) {
                    break;
                }
                PageNumbers page = new PageNumbers(Source.BYTE_ARRAYS, decoding, descriptor, data);
                page.byteArrays = PageByteArrays.decode(encoding, data);
                return page;
            }
            default -> {
            }
        }
        throw new IllegalStateException("values of a " + physical + " column encoded " + encoding);
    }

    /** The bytes a value takes in a PLAIN or BYTE_STREAM_SPLIT page. */
    private int storedWidth() {
        return switch (physical) {
            case INT32, FLOAT -> Integer.BYTES;
            case INT64, DOUBLE -> Long.BYTES;
            case INT96 -> 12;
            case FIXED_LEN_BYTE_ARRAY -> typeLength;
            default -> throw new IllegalStateException("no fixed width for " + physical);
        };
    }

    /** The next {@code count} values into {@code out[0..count)}, in the vector's form. */
    void read(long[] out, int count) {
        switch (source) {
            case PLAIN -> readPlain(out, count);
            case PLAIN_BITS -> {
                for (int i = 0; i < count; i++, cursor++) {
                    out[i] = (in.get(in.position() + (cursor >>> 3)) >>> (cursor & 7)) & 1;
                }
            }
            case DECODED -> {
                if (cursor + count > decoded.length) {
                    throw new IllegalStateException("the page has only " + decoded.length + " values");
                }
                System.arraycopy(decoded, cursor, out, 0, count);
                cursor += count;
                convert(out, count);
            }
            case BYTE_STREAM_SPLIT -> readByteStreamSplit(out, count);
            case RLE -> {
                if (rleBuffer.length < count) {
                    rleBuffer = new int[Math.max(count, 1024)];
                }
                rle.read(rleBuffer, 0, count);
                for (int i = 0; i < count; i++) {
                    out[i] = rleBuffer[i];
                }
            }
            case BYTE_ARRAYS -> {
                for (int i = 0; i < count; i++) {
                    int v = byteArrays.next();
                    out[i] = unscaled(byteArrays.bytes, byteArrays.offsets[v], byteArrays.length(v));
                }
            }
        }
    }

    /**
     * The next {@code count} values of a decimal column of precision 19 to 38 stored in bytes
     * (PLAIN, BYTE_STREAM_SPLIT or a delta byte-array encoding) as 128-bit two's complement:
     * {@code low[i]}, {@code high[i]}.
     */
    void readWide(long[] low, long[] high, int count) {
        ByteBuffer b = in;
        switch (source) {
            case PLAIN -> {
                boolean fixed = physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
                for (int i = 0; i < count; i++) {
                    int length = fixed ? typeLength : b.getInt();
                    wide(b, b.position(), length, low, high, i);
                    b.position(b.position() + length);
                }
            }
            case BYTE_STREAM_SPLIT -> {
                int width = storedWidth();
                if (cursor + count > streamCount) {
                    throw new IllegalStateException("the page has only " + streamCount + " values");
                }
                ByteBuffer value = ByteBuffer.allocate(width);
                int base = b.position();
                for (int i = 0; i < count; i++, cursor++) {
                    for (int k = 0; k < width; k++) {
                        value.put(k, b.get(base + k * streamCount + cursor));
                    }
                    wide(value, 0, width, low, high, i);
                }
            }
            case BYTE_ARRAYS -> {
                ByteBuffer bytes = ByteBuffer.wrap(byteArrays.bytes);
                for (int i = 0; i < count; i++) {
                    int v = byteArrays.next();
                    wide(bytes, byteArrays.offsets[v], byteArrays.length(v), low, high, i);
                }
            }
            default -> throw new IllegalStateException("wide decimals from a " + source + " page");
        }
    }

    /**
     * A big-endian two's-complement integer of {@code length} (at most 16) bytes at {@code from}
     * into {@code low[i]}, {@code high[i]}.
     */
    static void wide(ByteBuffer bytes, int from, int length, long[] low, long[] high, int i) {
        if (length > 16) {
            throw new IllegalStateException("a decimal value of " + length + " bytes, more than 38 digits take");
        }
        long h = length > 0 && bytes.get(from) < 0 ? -1L : 0L;
        long l = h;
        for (int b = from; b < from + length; b++) {
            h = (h << 8) | (l >>> 56);
            l = (l << 8) | (bytes.get(b) & 0xFF);
        }
        low[i] = l;
        high[i] = h;
    }

    private void readPlain(long[] out, int count) {
        ByteBuffer b = in;
        switch (physical) {
            case INT32, FLOAT -> {
                for (int i = 0; i < count; i++) {
                    out[i] = b.getInt();
                }
                convert(out, count);
            }
            case INT64, DOUBLE -> {
                for (int i = 0; i < count; i++) {
                    out[i] = b.getLong();
                }
                convert(out, count);
            }
            case INT96 -> {
                for (int i = 0; i < count; i++) {
                    long nanosOfDay = b.getLong();
                    out[i] = int96Micros(nanosOfDay, b.getInt());
                }
            }
            case FIXED_LEN_BYTE_ARRAY -> {
                for (int i = 0; i < count; i++) {
                    out[i] = unscaled(b, b.position(), typeLength);
                    b.position(b.position() + typeLength);
                }
            }
            case BINARY -> {
                for (int i = 0; i < count; i++) {
                    int length = b.getInt();
                    out[i] = unscaled(b, b.position(), length);
                    b.position(b.position() + length);
                }
            }
            default -> throw new IllegalStateException("PLAIN values of " + physical);
        }
    }

    /** Value {@code i} of a page of {@code n} is byte {@code k} of stream {@code k} (at {@code k * n + i}). */
    private void readByteStreamSplit(long[] out, int count) {
        int width = storedWidth();
        if (cursor + count > streamCount) {
            throw new IllegalStateException("the page has only " + streamCount + " values");
        }
        int base = in.position();
        if (physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
            byte[] value = new byte[width];
            for (int i = 0; i < count; i++, cursor++) {
                for (int k = 0; k < width; k++) {
                    value[k] = in.get(base + k * streamCount + cursor);
                }
                out[i] = unscaled(value, 0, width);
            }
            return;
        }
        for (int i = 0; i < count; i++, cursor++) {
            long v = 0;
            for (int k = width - 1; k >= 0; k--) {
                v = (v << 8) | (in.get(base + k * streamCount + cursor) & 0xFF);
            }
            out[i] = width == Integer.BYTES ? (int) v : v;
        }
        convert(out, count);
    }

    private void convert(long[] out, int count) {
        toVectorForm(decoding, out, count);
    }

    /** Stored integers and floating-point bits ({@code decoding}'s physical values, as read) into the vector's form. */
    static void toVectorForm(ParquetColumnType.Decoding decoding, long[] out, int count) {
        switch (decoding) {
            case INT32 -> {
                for (int i = 0; i < count; i++) {
                    out[i] = (int) out[i];
                }
            }
            case UINT32 -> {
                for (int i = 0; i < count; i++) {
                    out[i] &= 0xFFFF_FFFFL;
                }
            }
            case FLOAT -> {
                for (int i = 0; i < count; i++) {
                    out[i] = Double.doubleToRawLongBits(Float.intBitsToFloat((int) out[i]));
                }
            }
            case INT64_MILLIS -> {
                for (int i = 0; i < count; i++) {
                    out[i] *= 1000;
                }
            }
            case INT64_NANOS -> {
                for (int i = 0; i < count; i++) {
                    out[i] = Math.floorDiv(out[i], 1000L);
                }
            }
            default -> {
                // INT64, DOUBLE and decimals stored as integers are the vector's form
            }
        }
    }

    /** An INT96 timestamp (nanoseconds of the day, then the Julian day) in microseconds since the epoch. */
    static long int96Micros(long nanosOfDay, int julianDay) {
        return (julianDay - JULIAN_DAY_OF_EPOCH) * TemporalValues.MICROS_PER_DAY + nanosOfDay / 1000;
    }

    private static final long JULIAN_DAY_OF_EPOCH = 2_440_588L;

    /**
     * A big-endian two's-complement integer of {@code length} bytes as a long: the column's
     * precision of at most 18 guarantees it fits, so bytes beyond the last eight are sign extension.
     */
    static long unscaled(byte[] bytes, int from, int length) {
        if (length == 0) {
            return 0;
        }
        long value = bytes[from] < 0 ? -1L : 0L;
        for (int i = Math.max(from, from + length - 8); i < from + length; i++) {
            value = (value << 8) | (bytes[i] & 0xFF);
        }
        return value;
    }

    /** A byte-array decimal of precision up to 18 (a dictionary entry) as its unscaled long. */
    static long unscaled(Binary binary) {
        ByteBuffer bytes = binary.toByteBuffer();
        return unscaled(bytes, bytes.position(), bytes.remaining());
    }

    /** An INT96 timestamp (a dictionary entry) in microseconds since the epoch. */
    static long int96Micros(Binary value) {
        ByteBuffer b = value.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        return int96Micros(b.getLong(b.position()), b.getInt(b.position() + 8));
    }

    static long unscaled(ByteBuffer bytes, int from, int length) {
        if (length == 0) {
            return 0;
        }
        long value = bytes.get(from) < 0 ? -1L : 0L;
        for (int i = Math.max(from, from + length - 8); i < from + length; i++) {
            value = (value << 8) | (bytes.get(i) & 0xFF);
        }
        return value;
    }
}
