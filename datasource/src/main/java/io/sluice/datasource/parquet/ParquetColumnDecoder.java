package io.sluice.datasource.parquet;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Col;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.io.api.Binary;

/**
 * Decodes the values of one flat Parquet column, a batch at a time, straight into the primitive
 * arrays of a {@link Col}, through parquet-mr's value-at-a-time {@code ColumnReader}: every type and
 * encoding, slower than {@link ParquetPageDecoder}, which takes the common ones. A value is NULL when its definition level is below the column's maximum.
 * One loop per batch and decoding; no per-row objects except strings of non-dictionary pages.
 */
final class ParquetColumnDecoder implements ColumnChunkDecoder {
    private final ColumnReader reader;
    private final DataType type;
    private final ParquetColumnType.Decoding decoding;
    private final int maxDefinitionLevel;
    private final RecentStrings strings = new RecentStrings();

    ParquetColumnDecoder(ColumnReader reader, ParquetColumnType columnType) {
        this.reader = requireNonNull(reader, "reader is null");
        this.type = columnType.type();
        this.decoding = columnType.decoding();
        this.maxDefinitionLevel = reader.getDescriptor().getMaxDefinitionLevel();
    }

    @Override
    public void decode(int n, BufferAllocator allocator, Col[] cols, FieldVector[] vectors, int column) {
        cols[column] = decode(n);
    }

    Col decode(int n) {
        boolean[] nulls = null;
        ColumnReader r = reader;
        int maxDef = maxDefinitionLevel;
        if (decoding == ParquetColumnType.Decoding.DECIMAL_BYTES && type.isWideDecimal()) {
            return decodeWide(n);
        }
        switch (decoding) {
            case INT32, UINT32, INT64, DECIMAL_BYTES, INT64_MILLIS, INT64_NANOS, INT96 -> {
                long[] out = new long[n];
                for (int i = 0; i < n; i++) {
                    if (r.getCurrentDefinitionLevel() == maxDef) {
                        out[i] = longValue(r, decoding);
                    } else {
                        nulls = markNull(nulls, n, i);
                    }
                    r.consume();
                }
                return Col.ofLongs(type, out, nulls);
            }
            case DOUBLE, FLOAT -> {
                double[] out = new double[n];
                boolean isFloat = decoding == ParquetColumnType.Decoding.FLOAT;
                for (int i = 0; i < n; i++) {
                    if (r.getCurrentDefinitionLevel() == maxDef) {
                        out[i] = isFloat ? r.getFloat() : r.getDouble();
                    } else {
                        nulls = markNull(nulls, n, i);
                    }
                    r.consume();
                }
                return Col.ofDoubles(out, nulls);
            }
            case BOOLEAN -> {
                boolean[] out = new boolean[n];
                for (int i = 0; i < n; i++) {
                    if (r.getCurrentDefinitionLevel() == maxDef) {
                        out[i] = r.getBoolean();
                    } else {
                        nulls = markNull(nulls, n, i);
                    }
                    r.consume();
                }
                return Col.ofBools(out, nulls);
            }
            case STRING -> {
                String[] out = new String[n];
                for (int i = 0; i < n; i++) {
                    if (r.getCurrentDefinitionLevel() == maxDef) {
                        out[i] = strings.of(r.getBinary());
                    } else {
                        nulls = markNull(nulls, n, i);
                    }
                    r.consume();
                }
                return Col.ofStrings(out, nulls);
            }
            default -> throw new IllegalStateException("unhandled decoding " + decoding);
        }
    }

    /** Byte-array decimals of precision 19 to 38 as 128-bit values. */
    private Col decodeWide(int n) {
        boolean[] nulls = null;
        ColumnReader r = reader;
        long[] hi = new long[n];
        long[] lo = new long[n];
        for (int i = 0; i < n; i++) {
            if (r.getCurrentDefinitionLevel() == maxDefinitionLevel) {
                wideValue(r.getBinary(), type, hi, lo, i);
            } else {
                nulls = markNull(nulls, n, i);
            }
            r.consume();
        }
        return Col.ofInt128(type, hi, lo, nulls);
    }

    /** The current value of a long-backed decoding, in the unit of its Sluice type. */
    static long longValue(ColumnReader r, ParquetColumnType.Decoding decoding) {
        return switch (decoding) {
            case INT32 -> r.getInteger();
            case UINT32 -> r.getInteger() & 0xFFFF_FFFFL;
            case INT64 -> r.getLong();
            case INT64_MILLIS -> r.getLong() * 1000;
            case INT64_NANOS -> Math.floorDiv(r.getLong(), 1000L);
            case INT96 -> int96Micros(r.getBinary());
            default -> unscaledLong(r.getBinary());
        };
    }

    /** A byte-array decimal of precision 19 to 38 into {@code hi[i]}, {@code lo[i]}. */
    static void wideValue(Binary value, DataType type, long[] hi, long[] lo, int i) {
        ByteBuffer bytes = value.toByteBuffer();
        int start = bytes.position();
        int end = bytes.limit();
        if (end - start > 16) {
            throw new io.sluice.common.SluiceException("a decimal value of " + (end - start) + " bytes does not fit " + type);
        }
        long h = end > start && bytes.get(start) < 0 ? -1L : 0L;
        long l = h;
        for (int b = start; b < end; b++) {
            h = (h << 8) | (l >>> 56);
            l = (l << 8) | (bytes.get(b) & 0xFF);
        }
        hi[i] = h;
        lo[i] = l;
    }

    private static boolean[] markNull(boolean[] nulls, int n, int row) {
        boolean[] out = nulls == null ? new boolean[n] : nulls;
        out[row] = true;
        return out;
    }

    static long unscaledLong(Binary binary) {
        ByteBuffer bytes = binary.toByteBuffer();
        return PageNumbers.unscaled(bytes, bytes.position(), bytes.remaining());
    }

    static long int96Micros(Binary value) {
        ByteBuffer b = value.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        return PageNumbers.int96Micros(b.getLong(b.position()), b.getInt(b.position() + 8));
    }
}
