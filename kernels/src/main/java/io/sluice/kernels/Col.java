package io.sluice.kernels;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.TemporalValues;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * One column of a batch, unpacked into a primitive array for the kernels: integers, dates and
 * decimals in {@code longs}, floats in {@code doubles}, booleans in {@code bools}, strings in
 * {@code strings}. {@code nulls} is null when the column holds no NULL.
 *
 * <p>A {@code Col} lives on the heap and owns no Arrow memory; {@link #read} copies out of a vector
 * and {@link #write} copies into a new one that the caller owns.
 *
 * <p>Long on purpose: the gather, slice, concat, read and write loops each switch over the same
 * backing arrays and must stay in the class that owns them, so that kernels index those arrays
 * directly instead of through an accessor per row.
 */
public final class Col {
    public final DataType type;
    public final int length;
    public final long[] longs;
    public final double[] doubles;
    public final boolean[] bools;
    public final String[] strings;
    public final boolean[] nulls;
    /**
     * The wide form of a decimal of precision 19 to 38 some of whose values pass a long: high and
     * low words of 128-bit unscaled values ({@link Int128}); {@code longs} is then null, so code that
     * only knows longs fails rather than read a truncated value. A wide-typed column whose values
     * all fit a long is held in {@code longs} like any decimal (the compact form), which keeps every
     * kernel's fast path for the common case (TPC-H's {@code decimal(38, s)} sums).
     */
    public final long[] highs;
    public final long[] lows;
    /**
     * The values of a STRUCT, LIST or MAP column as Java objects, as {@link #get} returns them (see
     * {@link NestedValues}); null for every other type. Nested columns are payload: they are
     * carried, gathered and written, never computed on per row by a kernel.
     */
    public final Object[] objects;

    private Col(DataType type, int length, long[] longs, double[] doubles, boolean[] bools, String[] strings,
            boolean[] nulls) {
        this(type, length, longs, doubles, bools, strings, nulls, null, null, null);
    }

    private Col(DataType type, int length, long[] longs, double[] doubles, boolean[] bools, String[] strings,
            boolean[] nulls, long[] highs, long[] lows, Object[] objects) {
        this.type = requireNonNull(type, "type is null");
        this.length = length;
        this.longs = longs;
        this.doubles = doubles;
        this.bools = bools;
        this.strings = strings;
        this.nulls = nulls;
        this.highs = highs;
        this.lows = lows;
        this.objects = objects;
    }

    /**
     * A decimal column from 128-bit values: the compact {@code longs} form when every non-NULL
     * value fits a long, else the wide form.
     */
    public static Col ofInt128(DataType type, long[] highs, long[] lows, boolean[] nulls) {
        int n = lows.length;
        boolean fits = true;
        for (int i = 0; i < n && fits; i++) {
            fits = Int128.fitsLong(highs[i], lows[i]) || (nulls != null && nulls[i]);
        }
        if (fits) {
            return ofLongs(type, lows, nulls);
        }
        return new Col(type, n, null, null, null, null, nulls, highs, lows, null);
    }

    /** An empty decimal column in the wide form that a caller fills in place, then {@link #compacted}. */
    public static Col allocateWide(DataType type, int length, boolean withNulls) {
        return new Col(type, length, null, null, null, null, withNulls ? new boolean[length] : null, new long[length],
                new long[length], null);
    }

    /** A wide-form column in the compact form when every value fits a long; any other column as it is. */
    public Col compacted() {
        return lows == null ? this : ofInt128(type, highs, lows, nulls);
    }

    /** Whether this is a decimal column in the wide form (values in {@code highs}/{@code lows}). */
    public boolean isWide() {
        return lows != null;
    }

    /** The high word of a row's value, in either form. */
    public long high(int row) {
        return lows != null ? highs[row] : longs[row] >> 63;
    }

    /** The low word of a row's value (the value itself in the compact form). */
    public long low(int row) {
        return lows != null ? lows[row] : longs[row];
    }

    /** This column's values as longs for a use that has no wide path yet: a wide column is an error naming the use. */
    public long[] requireLongs(String use) {
        if (longs == null && lows != null) {
            throw new io.sluice.common.SluiceException(type.sqlName() + " values past 18 digits are not supported as " + use);
        }
        return longs;
    }

    public static Col ofLongs(DataType type, long[] values, boolean[] nulls) {
        return new Col(type, values.length, values, null, null, null, nulls);
    }

    public static Col ofDoubles(double[] values, boolean[] nulls) {
        return new Col(DataType.FLOAT64, values.length, null, values, null, null, nulls);
    }

    public static Col ofBools(boolean[] values, boolean[] nulls) {
        return new Col(DataType.BOOL, values.length, null, null, values, null, nulls);
    }

    public static Col ofStrings(String[] values, boolean[] nulls) {
        return new Col(DataType.UTF8, values.length, null, null, null, values, nulls);
    }

    /** A nested column of Java values in {@link NestedValues}' form, null where {@code nulls} says so. */
    public static Col ofObjects(DataType type, Object[] values, boolean[] nulls) {
        if (!type.isNested()) {
            throw new IllegalArgumentException("a " + type + " column is not held as objects");
        }
        return new Col(type, values.length, null, null, null, null, nulls, null, null, values);
    }

    /** A column of {@code length} NULLs of the given type. */
    public static Col allNull(DataType type, int length) {
        boolean[] nulls = new boolean[length];
        Arrays.fill(nulls, true);
        return switch (type.kind()) {
            case FLOAT64 -> ofDoubles(new double[length], nulls);
            case BOOL, NULL -> new Col(type, length, null, null, new boolean[length], null, nulls);
            case UTF8 -> ofStrings(new String[length], nulls);
            case STRUCT, LIST, MAP -> ofObjects(type, new Object[length], nulls);
            default -> ofLongs(type, new long[length], nulls);
        };
    }

    public boolean isNull(int row) {
        return nulls != null && nulls[row];
    }

    /** Builds an empty column of the given type and length that a caller fills in place. */
    public static Col allocate(DataType type, int length, boolean withNulls) {
        boolean[] nulls = withNulls ? new boolean[length] : null;
        return switch (type.kind()) {
            case FLOAT64 -> ofDoubles(new double[length], nulls);
            case BOOL, NULL -> new Col(type, length, null, null, new boolean[length], null, nulls);
            case UTF8 -> ofStrings(new String[length], nulls);
            case STRUCT, LIST, MAP -> ofObjects(type, new Object[length], nulls);
            default -> ofLongs(type, new long[length], nulls);
        };
    }

    /** The same values reinterpreted as another long-backed type (e.g. int32 widened to int64). */
    public Col withType(DataType newType) {
        return new Col(newType, length, longs, doubles, bools, strings, nulls, highs, lows, objects);
    }

    /** Rows {@code indexes[0..count)} of this column, in that order. */
    public Col gather(int[] indexes, int count) {
        boolean[] outNulls = null;
        if (nulls != null) {
            outNulls = new boolean[count];
            for (int i = 0; i < count; i++) {
                outNulls[i] = nulls[indexes[i]];
            }
        }
        if (lows != null) {
            long[] hi = new long[count];
            long[] lo = new long[count];
            for (int i = 0; i < count; i++) {
                hi[i] = highs[indexes[i]];
                lo[i] = lows[indexes[i]];
            }
            return ofInt128(type, hi, lo, outNulls);
        }
        switch (type.kind()) {
            case FLOAT64: {
                double[] out = new double[count];
                for (int i = 0; i < count; i++) {
                    out[i] = doubles[indexes[i]];
                }
                return ofDoubles(out, outNulls);
            }
            case BOOL:
            case NULL: {
                boolean[] out = new boolean[count];
                for (int i = 0; i < count; i++) {
                    out[i] = bools[indexes[i]];
                }
                return new Col(type, count, null, null, out, null, outNulls);
            }
            case UTF8: {
                String[] out = new String[count];
                for (int i = 0; i < count; i++) {
                    out[i] = strings[indexes[i]];
                }
                return ofStrings(out, outNulls);
            }
            case STRUCT:
            case LIST:
            case MAP: {
                Object[] out = new Object[count];
                for (int i = 0; i < count; i++) {
                    out[i] = objects[indexes[i]];
                }
                return ofObjects(type, out, outNulls);
            }
            default: {
                long[] out = new long[count];
                for (int i = 0; i < count; i++) {
                    out[i] = longs[indexes[i]];
                }
                return ofLongs(type, out, outNulls);
            }
        }
    }

    /**
     * Rows {@code indexes[0..count)} of this column, where a negative index yields NULL: the side
     * of an outer join that found no partner.
     */
    public Col gatherOrNull(int[] indexes, int count) {
        boolean any = false;
        for (int i = 0; i < count; i++) {
            any |= indexes[i] < 0;
        }
        if (!any) {
            return gather(indexes, count);
        }
        int[] safe = new int[count];
        boolean[] outNulls = new boolean[count];
        for (int i = 0; i < count; i++) {
            int index = indexes[i];
            boolean missing = index < 0;
            safe[i] = missing ? 0 : index;
            outNulls[i] = missing || (nulls != null && nulls[index]);
        }
        if (length == 0) {
            return allNull(type, count);
        }
        Col values = gather(safe, count);
        return new Col(type, count, values.longs, values.doubles, values.bools, values.strings, outNulls,
                values.highs, values.lows, values.objects);
    }

    /** The rows of several columns of one type, one after another. */
    public static Col concat(DataType type, java.util.List<Col> parts) {
        if (parts.size() == 1) {
            return parts.get(0);
        }
        int total = 0;
        boolean anyNulls = false;
        boolean anyWide = false;
        for (Col c : parts) {
            total += c.length;
            anyNulls |= c.nulls != null;
            anyWide |= c.lows != null;
        }
        if (anyWide) {
            return concatWide(type, parts, total, anyNulls);
        }
        Col out = allocate(type, total, anyNulls);
        int at = 0;
        for (Col c : parts) {
            switch (type.kind()) {
                case FLOAT64 -> System.arraycopy(c.doubles, 0, out.doubles, at, c.length);
                case BOOL, NULL -> System.arraycopy(c.bools, 0, out.bools, at, c.length);
                case UTF8 -> System.arraycopy(c.strings, 0, out.strings, at, c.length);
                case STRUCT, LIST, MAP -> System.arraycopy(c.objects, 0, out.objects, at, c.length);
                default -> System.arraycopy(c.longs, 0, out.longs, at, c.length);
            }
            if (c.nulls != null) {
                System.arraycopy(c.nulls, 0, out.nulls, at, c.length);
            }
            at += c.length;
        }
        return out;
    }

    private static Col concatWide(DataType type, java.util.List<Col> parts, int total, boolean anyNulls) {
        long[] hi = new long[total];
        long[] lo = new long[total];
        boolean[] nulls = anyNulls ? new boolean[total] : null;
        int at = 0;
        for (Col c : parts) {
            for (int i = 0; i < c.length; i++) {
                hi[at + i] = c.high(i);
                lo[at + i] = c.low(i);
            }
            if (c.nulls != null) {
                System.arraycopy(c.nulls, 0, nulls, at, c.length);
            }
            at += c.length;
        }
        return ofInt128(type, hi, lo, nulls);
    }

    /** Rows {@code [from, from + count)} of this column. */
    public Col slice(int from, int count) {
        if (from == 0 && count == length) {
            return this;
        }
        boolean[] outNulls = nulls == null ? null : Arrays.copyOfRange(nulls, from, from + count);
        if (lows != null) {
            return ofInt128(type, Arrays.copyOfRange(highs, from, from + count), Arrays.copyOfRange(lows, from, from + count),
                    outNulls);
        }
        return switch (type.kind()) {
            case FLOAT64 -> ofDoubles(Arrays.copyOfRange(doubles, from, from + count), outNulls);
            case BOOL, NULL -> new Col(type, count, null, null, Arrays.copyOfRange(bools, from, from + count), null, outNulls);
            case UTF8 -> ofStrings(Arrays.copyOfRange(strings, from, from + count), outNulls);
            case STRUCT, LIST, MAP -> ofObjects(type, Arrays.copyOfRange(objects, from, from + count), outNulls);
            default -> ofLongs(type, Arrays.copyOfRange(longs, from, from + count), outNulls);
        };
    }

    /** The value at a row as a Java object (for results and tests, not for hot loops). */
    public Object get(int row) {
        if (isNull(row)) {
            return null;
        }
        return switch (type.kind()) {
            case NULL -> null;
            case BOOL -> bools[row];
            case INT32 -> (int) longs[row];
            case INT64 -> longs[row];
            case FLOAT64 -> doubles[row];
            case DECIMAL -> Int128.toBigDecimal(high(row), low(row), type.scale());
            case UTF8 -> strings[row];
            case DATE32 -> java.time.LocalDate.ofEpochDay(longs[row]);
            case TIMESTAMP -> TemporalValues.toLocalDateTime(longs[row]);
            case STRUCT, LIST, MAP -> objects[row];
        };
    }

    /** Copies a vector's values out. */
    public static Col read(FieldVector vector, DataType type) {
        int n = vector.getValueCount();
        if (type.kind() == DataType.Kind.NULL) {
            return allNull(type, n); // a NullVector has no validity buffer to read
        }
        boolean[] nulls = ArrowKernels.nulls(vector, n);
        switch (type.kind()) {
            case BOOL: {
                BitVector v = (BitVector) vector;
                boolean[] out = new boolean[n];
                for (int i = 0; i < n; i++) {
                    out[i] = nulls == null || !nulls[i] ? v.get(i) != 0 : false;
                }
                return ofBools(out, nulls);
            }
            case INT32: {
                int[] ints = new int[n];
                ((IntVector) vector).getDataBuffer().nioBuffer(0, n * 4).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(ints);
                long[] out = new long[n];
                for (int i = 0; i < n; i++) {
                    out[i] = ints[i];
                }
                return ofLongs(type, out, nulls);
            }
            case DATE32: {
                int[] ints = new int[n];
                ((DateDayVector) vector).getDataBuffer().nioBuffer(0, n * 4).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer()
                        .get(ints);
                long[] out = new long[n];
                for (int i = 0; i < n; i++) {
                    out[i] = ints[i];
                }
                return ofLongs(type, out, nulls);
            }
            case INT64:
            case TIMESTAMP: {
                long[] out = new long[n];
                ((org.apache.arrow.vector.BaseFixedWidthVector) vector).getDataBuffer().nioBuffer(0, n * 8).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer()
                        .get(out);
                return ofLongs(type, out, nulls);
            }
            case DECIMAL: {
                // Each slot is a 128-bit little-endian two's complement value: low word first. For
                // precision <= 18 the low word is the unscaled long.
                DecimalVector v = (DecimalVector) vector;
                long[] out = new long[n];
                var buf = v.getDataBuffer();
                for (int i = 0; i < n; i++) {
                    out[i] = buf.getLong((long) i * 16);
                }
                if (type.precision() <= DataType.MAX_LONG_DECIMAL_PRECISION) {
                    return ofLongs(type, out, nulls);
                }
                long[] hi = new long[n];
                for (int i = 0; i < n; i++) {
                    hi[i] = buf.getLong((long) i * 16 + 8);
                }
                return ofInt128(type, hi, out, nulls);
            }
            case FLOAT64: {
                double[] out = new double[n];
                ((Float8Vector) vector).getDataBuffer().nioBuffer(0, n * 8).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer()
                        .get(out);
                return ofDoubles(out, nulls);
            }
            case UTF8: {
                // one bulk copy of the bytes, then one decode per row (no byte[] per row)
                VarCharVector v = (VarCharVector) vector;
                byte[] data = ArrowKernels.dataBytes(v, n);
                int[] offsets = ArrowKernels.offsets(v, n);
                String[] out = new String[n];
                for (int i = 0; i < n; i++) {
                    if (nulls == null || !nulls[i]) {
                        out[i] = new String(data, offsets[i], offsets[i + 1] - offsets[i], StandardCharsets.UTF_8);
                    }
                }
                return ofStrings(out, nulls);
            }
            case STRUCT:
            case LIST:
            case MAP:
                return ofObjects(type, NestedValues.read(vector, type), nulls);
            default:
                throw new IllegalStateException("unhandled type " + type);
        }
    }

    /** Copies this column into a new vector owned by the caller. */
    public FieldVector write(String name, BufferAllocator allocator) {
        FieldVector vector = type.toArrowField(name).createVector(allocator);
        try {
            fill(vector);
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
        return vector;
    }

    /** Sets the validity bits of rows {@code [0, n)}: all valid, or valid where not NULL. */
    private void setValidity(org.apache.arrow.memory.ArrowBuf validity, int n) {
        int bytes = (n + 7) >> 3;
        if (nulls == null) {
            validity.setOne(0, bytes);
            return;
        }
        for (int b = 0; b < bytes; b++) {
            int bits = 0;
            int base = b << 3;
            int end = Math.min(8, n - base);
            for (int j = 0; j < end; j++) {
                bits |= nulls[base + j] ? 0 : 1 << j;
            }
            validity.setByte(b, bits);
        }
    }

    /** Writes this column's values into {@code vector} (of this type), allocating its buffers. */
    void fill(FieldVector vector) {
        int n = length;
        switch (type.kind()) {
            case STRUCT, LIST, MAP -> NestedValues.fill(vector, type, objects, n);
            case NULL -> ((NullVector) vector).setValueCount(n);
            case BOOL -> {
                BitVector v = (BitVector) vector;
                v.allocateNew(n);
                for (int i = 0; i < n; i++) {
                    if (!isNull(i)) {
                        v.set(i, bools[i] ? 1 : 0);
                    }
                }
                v.setValueCount(n);
            }
            case INT32 -> {
                IntVector v = (IntVector) vector;
                v.allocateNew(n);
                for (int i = 0; i < n; i++) {
                    if (!isNull(i)) {
                        v.set(i, (int) longs[i]);
                    }
                }
                v.setValueCount(n);
            }
            case DATE32 -> {
                DateDayVector v = (DateDayVector) vector;
                v.allocateNew(n);
                for (int i = 0; i < n; i++) {
                    if (!isNull(i)) {
                        v.set(i, (int) longs[i]);
                    }
                }
                v.setValueCount(n);
            }
            case INT64, TIMESTAMP -> {
                org.apache.arrow.vector.BaseFixedWidthVector v = (org.apache.arrow.vector.BaseFixedWidthVector) vector;
                v.allocateNew(n);
                v.getDataBuffer().nioBuffer(0, n * 8).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().put(longs, 0, n);
                setValidity(v.getValidityBuffer(), n);
                v.setValueCount(n);
            }
            case DECIMAL -> {
                DecimalVector v = (DecimalVector) vector;
                v.allocateNew(n);
                var buf = v.getDataBuffer();
                for (int i = 0; i < n; i++) {
                    long at = (long) i * 16;
                    buf.setLong(at, low(i));
                    buf.setLong(at + 8, high(i));
                }
                setValidity(v.getValidityBuffer(), n);
                v.setValueCount(n);
            }
            case FLOAT64 -> {
                Float8Vector v = (Float8Vector) vector;
                v.allocateNew(n);
                v.getDataBuffer().nioBuffer(0, n * 8).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().put(doubles, 0, n);
                setValidity(v.getValidityBuffer(), n);
                v.setValueCount(n);
            }
            case UTF8 -> {
                // encodes into one heap buffer (ASCII without a per-string allocation), then copies it in bulk
                VarCharVector v = (VarCharVector) vector;
                byte[] buffer = new byte[Math.max(16, n * 16)];
                int[] ends = new int[n + 1];
                int position = 0;
                for (int i = 0; i < n; i++) {
                    if (!isNull(i)) {
                        String value = strings[i];
                        int length = value.length();
                        if (position + length > buffer.length) {
                            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, position + length));
                        }
                        int j = 0;
                        while (j < length) {
                            char c = value.charAt(j);
                            if (c >= 0x80) {
                                break;
                            }
                            buffer[position + j++] = (byte) c;
                        }
                        if (j < length) {
                            byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
                            if (position + bytes.length > buffer.length) {
                                buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, position + bytes.length));
                            }
                            System.arraycopy(bytes, 0, buffer, position, bytes.length);
                            length = bytes.length;
                        }
                        position += length;
                    }
                    ends[i + 1] = position;
                }
                v.allocateNew(Math.max(1, position), n);
                if (position > 0) {
                    org.apache.arrow.memory.util.MemoryUtil.copyToMemory(buffer, 0, v.getDataBuffer().memoryAddress(),
                            position);
                }
                v.getOffsetBuffer().nioBuffer(0, (n + 1) * 4).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(ends);
                setValidity(v.getValidityBuffer(), n);
                v.setLastSet(n - 1);
                v.setValueCount(n);
            }
            default -> throw new IllegalStateException("unhandled type " + type);
        }
    }
}
