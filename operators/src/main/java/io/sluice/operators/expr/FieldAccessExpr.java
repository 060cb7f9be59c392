package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.InPlaceValues;
import io.sluice.kernels.Utf8Bytes;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * A struct's field ({@code s.f}, and {@code s.a.b} as a chain of these). When the batch holds the
 * struct as an Arrow {@code StructVector} (a Parquet scan's nested column, a shuffle fetch) whose
 * NULL rows are NULL in the field too, the field is that child vector, read in place and shared by
 * reference (owned by the batch): no struct value is assembled. Otherwise {@code general}, the
 * evaluation over the Java form of nested values, gives the values.
 */
record FieldAccessExpr(PhysicalExpr struct, int field, DataType type, PhysicalExpr general) implements PhysicalExpr {
    FieldAccessExpr {
        requireNonNull(struct, "struct is null");
        requireNonNull(type, "type is null");
        requireNonNull(general, "general is null");
    }

    @Override
    public Col evaluate(Batch batch) {
        FieldVector vector = arrowVector(batch);
        return vector != null ? Col.read(vector, type) : general.evaluate(batch);
    }

    @Override
    public Utf8Bytes utf8(Batch batch) {
        return arrowVector(batch) instanceof VarCharVector strings ? Utf8Bytes.of(strings) : null;
    }

    /** The field's child vector, or null when the batch does not hold the struct so or its NULLs do not carry down. */
    @Override
    public FieldVector arrowVector(Batch batch) {
        if (!(struct.arrowVector(batch) instanceof StructVector vector) || field >= vector.size()) {
            return null;
        }
        FieldVector child = (FieldVector) vector.getChildByOrdinal(field);
        int n = vector.getValueCount();
        if (child.getValueCount() != n || !child.getField().getType().equals(type.toArrowField("f").getType())) {
            return null;
        }
        return vector.getNullCount() == 0 || nullsCarryDown(vector.getValidityBuffer(), child.getValidityBuffer(), n)
                ? child : null;
    }

    @Override
    public InPlaceValues inPlace(Batch batch) {
        return InPlaceValues.of(arrowVector(batch), type);
    }

    /** Whether every row NULL in {@code parent} is NULL in {@code child} too (valid bits of the child only under valid parents). */
    private static boolean nullsCarryDown(ArrowBuf parent, ArrowBuf child, int n) {
        int whole = n >> 3;
        for (int b = 0; b < whole; b++) {
            if ((child.getByte(b) & ~parent.getByte(b)) != 0) {
                return false;
            }
        }
        int rest = n & 7;
        return rest == 0 || (child.getByte(whole) & ~parent.getByte(whole) & ((1 << rest) - 1)) == 0;
    }

    @Override
    public String toString() {
        return struct + ".field#" + field;
    }
}
