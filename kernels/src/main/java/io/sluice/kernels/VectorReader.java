package io.sluice.kernels;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.common.types.TemporalValues;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * One column of a batch read value by value from its Arrow vector, for consumers that go row by
 * row through every column anyway (the file writers, partition directory values): typed reads with
 * no heap column made first. Fixed-width values are read in place ({@link InPlaceValues}), strings
 * from one bulk copy of their bytes ({@link Utf8Bytes}, decoded only by {@link #stringAt}), nested
 * values in their Java form ({@link NestedValues}), made once per column when first asked.
 *
 * <p>Valid while the batch that holds the vector is open. A read of a NULL row's value is
 * unspecified: callers check {@link #isNull} first.
 */
public final class VectorReader {
    private final FieldVector vector;
    private final DataType type;
    private final InPlaceValues fixed;
    private final ArrowBuf wideSlots;
    private Utf8Bytes strings;
    private Object[] nested;

    private VectorReader(FieldVector vector, DataType type) {
        this.vector = requireNonNull(vector, "vector");
        this.type = requireNonNull(type, "type");
        this.fixed = InPlaceValues.of(vector, type);
        this.wideSlots = type.isWideDecimal() ? vector.getDataBuffer() : null;
    }

    /** Column {@code index} of {@code batch} as a reader (the batch writes its Arrow form if it has none). */
    public static VectorReader of(Batch batch, int index) {
        return new VectorReader(batch.root().getVector(index), batch.schema().field(index).type());
    }

    /** Every column of {@code batch} as a reader. */
    public static VectorReader[] all(Batch batch) {
        VectorReader[] out = new VectorReader[batch.schema().size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = of(batch, i);
        }
        return out;
    }

    public DataType type() {
        return type;
    }

    public boolean isNull(int row) {
        return type.kind() == DataType.Kind.NULL || vector.isNull(row);
    }

    /** A long-backed value: INT32, INT64, DATE32 (days), TIMESTAMP (microseconds), a decimal's unscaled long up to 18 digits. */
    public long longAt(int row) {
        return fixed.longAt(row);
    }

    public double doubleAt(int row) {
        return fixed.doubleAt(row);
    }

    public boolean boolAt(int row) {
        return ((BitVector) vector).get(row) != 0;
    }

    /** A decimal's unscaled value's high 64 bits (the sign of the low word up to 18 digits). */
    public long highAt(int row) {
        return wideSlots != null ? wideSlots.getLong((long) row * 16 + 8) : fixed.longAt(row) >> 63;
    }

    /** A decimal's unscaled value's low 64 bits. */
    public long lowAt(int row) {
        return wideSlots != null ? wideSlots.getLong((long) row * 16) : fixed.longAt(row);
    }

    /** The column's string bytes (a VARCHAR column only). */
    public Utf8Bytes utf8() {
        if (strings == null) {
            strings = Utf8Bytes.of((VarCharVector) vector);
        }
        return strings;
    }

    /** A VARCHAR value decoded (bytes that are not UTF-8 become U+FFFD). */
    public String stringAt(int row) {
        Utf8Bytes bytes = utf8();
        int start = bytes.start(row);
        return new String(bytes.data(), start, bytes.end(row) - start, StandardCharsets.UTF_8);
    }

    /** Whether two rows' VARCHAR values have the same bytes. */
    public boolean sameString(int a, int b) {
        Utf8Bytes bytes = utf8();
        return java.util.Arrays.equals(bytes.data(), bytes.start(a), bytes.end(a),
                bytes.data(), bytes.start(b), bytes.end(b));
    }

    /** A STRUCT, LIST or MAP value in its Java form ({@link NestedValues}). */
    public Object objectAt(int row) {
        if (nested == null) {
            nested = NestedValues.read(vector, type);
        }
        return nested[row];
    }

    /** The value as text, as {@link ValueFormat#format(Col, int)} writes it (DuckDB's forms); not for NULL. */
    public String format(int row) {
        return switch (type.kind()) {
            case NULL -> "";
            case BOOL -> Boolean.toString(boolAt(row));
            case INT32, INT64 -> Long.toString(longAt(row));
            case FLOAT64 -> ValueFormat.formatDouble(doubleAt(row));
            case DECIMAL -> Int128.toBigDecimal(highAt(row), lowAt(row), type.scale()).toPlainString();
            case UTF8 -> stringAt(row);
            case DATE32 -> LocalDate.ofEpochDay(longAt(row)).toString();
            case TIMESTAMP -> TemporalValues.formatTimestamp(longAt(row));
            case STRUCT, LIST, MAP -> ValueFormat.formatObject(objectAt(row), type);
        };
    }
}
