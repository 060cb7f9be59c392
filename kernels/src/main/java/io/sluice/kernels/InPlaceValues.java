package io.sluice.kernels;

import io.sluice.common.types.DataType;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroVector;

/**
 * One batch's fixed-width Arrow column, read where Arrow keeps it: the address of its values and of
 * its validity bits, for kernels (comparisons and arithmetic against constants, the aggregate's
 * probe and accumulators, join probes) to loop over without the column being widened into a heap
 * array per batch ({@code Col.read}: an {@code int} vector copied and
 * widened to a {@code long[]}, a {@code double[]} per batch, garbage for the collector).
 *
 * <p>Long-backed values (INT32, DATE32: 4 bytes; INT64, TIMESTAMP: 8; a decimal of precision up
 * to 18: the low word of each 16-byte slot, which is the unscaled long) read as {@code long}s
 * through {@link #longAt}; FLOAT64 through {@link #doubleAt}. A row's value under a NULL is
 * unspecified and must not be read as a value. Valid while the batch that holds the vector is
 * open; the vector's buffers are checked once, when the view is made, to cover its rows.
 */
public final class InPlaceValues {
    /** {@code log2} of the stride of a value: 2 (4-byte ints), 3 (longs, doubles) or 4 (decimal128 slots). */
    public final int shift;
    /** Whether the values are doubles (else long-backed). */
    public final boolean doubles;
    /** The decimal scale of the values (0 for other types). */
    public final int scale;
    /** Address of row 0's value. */
    public final long data;
    /** Address of the validity bits, or 0 when no row is NULL. */
    public final long validity;
    public final int rows;

    private InPlaceValues(int shift, boolean doubles, int scale, long data, long validity, int rows) {
        this.shift = shift;
        this.doubles = doubles;
        this.scale = scale;
        this.data = data;
        this.validity = validity;
        this.rows = rows;
    }

    /** Whether {@code other} reads the very same values (the same buffer, read alike): one column's. */
    public boolean sameValuesAs(InPlaceValues other) {
        return other.data == data && other.shift == shift && other.scale == scale && other.doubles == doubles
                && other.rows == rows;
    }

    /**
     * The vector of a column of {@code type} read in place, or null when it is not one this
     * reads (no vector, a string, a boolean, a decimal past 18 digits, a vector of another type
     * than {@code type} says): the caller then reads the heap column.
     */
    public static InPlaceValues of(FieldVector vector, DataType type) {
        if (vector == null) {
            return null;
        }
        int shift;
        boolean doubles = false;
        switch (type.kind()) {
            case INT32 -> shift = vector instanceof IntVector ? 2 : -1;
            case DATE32 -> shift = vector instanceof DateDayVector ? 2 : -1;
            case INT64 -> shift = vector instanceof BigIntVector ? 3 : -1;
            case TIMESTAMP -> shift = vector instanceof TimeStampMicroVector ? 3 : -1;
            case FLOAT64 -> {
                shift = vector instanceof Float8Vector ? 3 : -1;
                doubles = true;
            }
            case DECIMAL -> shift = !type.isWideDecimal() && vector instanceof DecimalVector ? 4 : -1;
            default -> shift = -1;
        }
        if (shift < 0) {
            return null;
        }
        BaseFixedWidthVector fixed = (BaseFixedWidthVector) vector;
        int rows = fixed.getValueCount();
        ArrowBuf values = fixed.getDataBuffer();
        ArrowBuf bits = fixed.getValidityBuffer();
        if (rows == 0 || values.capacity() < ((long) rows << shift) || bits.capacity() < (rows + 7L) / 8) {
            return null;
        }
        long validity = fixed.getNullCount() == 0 ? 0 : bits.memoryAddress();
        int scale = type.kind() == DataType.Kind.DECIMAL ? type.scale() : 0;
        return new InPlaceValues(shift, doubles, scale, values.memoryAddress(), validity, rows);
    }

    /** The NULL rows as one flag per row (the NULLs of a kernel's result), or null when no row is NULL. */
    public boolean[] nullFlags() {
        if (validity == 0) {
            return null;
        }
        boolean[] out = new boolean[rows];
        for (int i = 0; i < rows; i++) {
            out[i] = isNull(validity, i);
        }
        return out;
    }

    /** Whether row {@code row} is NULL. */
    public boolean isNull(int row) {
        return isNull(validity, row);
    }

    /** Row {@code row}'s long-backed value (the unscaled long of a decimal). */
    public long longAt(int row) {
        return longAt(data, shift, row);
    }

    /** Row {@code row}'s double. */
    public double doubleAt(int row) {
        return doubleAt(data, row);
    }

    // The static forms, for loops that keep the address, stride and validity in locals.

    /** Whether row {@code row} is NULL under validity bits at {@code validity} (0: no row is). */
    public static boolean isNull(long validity, int row) {
        return validity != 0 && (MemoryUtil.getByte(validity + (row >>> 3)) & (1 << (row & 7))) == 0;
    }

    /**
     * 1 when row {@code row} is not NULL under validity bits at {@code validity} (0: no row is), else 0:
     * {@link #isNull} as a number, for loops that add a row's tests instead of branching on them.
     */
    public static int valid(long validity, int row) {
        return validity == 0 ? 1 : MemoryUtil.getByte(validity + (row >>> 3)) >>> (row & 7) & 1;
    }

    /** Row {@code row}'s long-backed value from values at {@code data} with stride {@code 1 << shift}. */
    public static long longAt(long data, int shift, int row) {
        return shift == 2 ? MemoryUtil.getInt(data + ((long) row << 2)) : MemoryUtil.getLong(data + ((long) row << shift));
    }

    /** Row {@code row}'s double from doubles at {@code data}. */
    public static double doubleAt(long data, int row) {
        return Double.longBitsToDouble(MemoryUtil.getLong(data + ((long) row << 3)));
    }
}
