package io.sluice.kernels;

import io.sluice.common.types.DataType;
import io.sluice.common.types.Schema;
import io.sluice.common.types.TemporalValues;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * A result batch's rows as the Java values a client reads ({@link QueryResult} says which),
 * decoded straight from its Arrow vectors: each value is read from the Arrow buffers once and
 * boxed once, with no heap column in between. A result arrives as Arrow (IPC, a shuffle fetch), so
 * its batches hold every column as a vector; one an operator in this process made on the heap is
 * written to Arrow first ({@link Batch#root()}).
 */
public final class ArrowRows {
    private ArrowRows() {
    }

    /** The rows of {@code batch}, each an unmodifiable list. */
    public static List<List<Object>> of(Batch batch) {
        return of(batch.root().getFieldVectors(), batch.schema(), batch.rowCount());
    }

    /** The rows of {@code vectors} (one per field of {@code schema}, {@code rows} values each). */
    public static List<List<Object>> of(List<FieldVector> vectors, Schema schema, int rows) {
        Object[][] columns = new Object[schema.size()][];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = values(vectors.get(c), schema.field(c).type(), rows);
        }
        return transpose(columns, rows);
    }

    private static List<List<Object>> transpose(Object[][] columns, int rows) {
        List<List<Object>> out = new ArrayList<>(rows);
        for (int r = 0; r < rows; r++) {
            Object[] row = new Object[columns.length];
            for (int c = 0; c < row.length; c++) {
                row[c] = columns[c][r];
            }
            out.add(Collections.unmodifiableList(Arrays.asList(row)));
        }
        return out;
    }

    /** One column's values as the Java objects {@link QueryResult} names; null where NULL. */
    static Object[] values(FieldVector vector, DataType type, int rows) {
        Object[] out = new Object[rows];
        switch (type.kind()) {
            case NULL -> {
            }
            case BOOL -> {
                BitVector v = (BitVector) vector;
                for (int r = 0; r < rows; r++) {
                    out[r] = v.isNull(r) ? null : v.get(r) != 0;
                }
            }
            case INT32 -> {
                IntVector v = (IntVector) vector;
                for (int r = 0; r < rows; r++) {
                    out[r] = v.isNull(r) ? null : v.get(r);
                }
            }
            case DATE32 -> {
                DateDayVector v = (DateDayVector) vector;
                for (int r = 0; r < rows; r++) {
                    out[r] = v.isNull(r) ? null : java.time.LocalDate.ofEpochDay(v.get(r));
                }
            }
            case INT64 -> {
                BigIntVector v = (BigIntVector) vector;
                for (int r = 0; r < rows; r++) {
                    out[r] = v.isNull(r) ? null : v.get(r);
                }
            }
            case TIMESTAMP -> {
                TimeStampVector v = (TimeStampVector) vector;
                for (int r = 0; r < rows; r++) {
                    out[r] = v.isNull(r) ? null : TemporalValues.toLocalDateTime(v.get(r));
                }
            }
            case FLOAT64 -> {
                Float8Vector v = (Float8Vector) vector;
                for (int r = 0; r < rows; r++) {
                    out[r] = v.isNull(r) ? null : v.get(r);
                }
            }
            case DECIMAL -> {
                // each slot is a 128-bit little-endian two's complement value, low word first
                DecimalVector v = (DecimalVector) vector;
                var data = v.getDataBuffer();
                for (int r = 0; r < rows; r++) {
                    out[r] = v.isNull(r) ? null
                            : Int128.toBigDecimal(data.getLong(16L * r + 8), data.getLong(16L * r), type.scale());
                }
            }
            case UTF8 -> {
                VarCharVector v = (VarCharVector) vector;
                byte[] data = ArrowKernels.dataBytes(v, rows);
                int[] offsets = ArrowKernels.offsets(v, rows);
                for (int r = 0; r < rows; r++) {
                    out[r] = v.isNull(r) ? null
                            : new String(data, offsets[r], offsets[r + 1] - offsets[r], StandardCharsets.UTF_8);
                }
            }
            case STRUCT, LIST, MAP -> {
                Object[] nested = NestedValues.read(vector, type);
                for (int r = 0; r < rows; r++) {
                    out[r] = vector.isNull(r) ? null : nested[r];
                }
            }
        }
        return out;
    }
}
