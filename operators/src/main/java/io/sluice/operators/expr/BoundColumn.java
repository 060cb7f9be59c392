package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import io.sluice.kernels.InPlaceValues;
import io.sluice.kernels.Utf8Bytes;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/** An input column by position. */
public record BoundColumn(int index, DataType type, String name) implements PhysicalExpr {
    public BoundColumn {
        requireNonNull(type, "type is null");
        requireNonNull(name, "name is null");
        if (index < 0) {
            throw new IllegalArgumentException("column index " + index + " of " + name);
        }
    }

    @Override
    public Col evaluate(Batch batch) {
        return batch.column(index);
    }

    @Override
    public Utf8Bytes utf8(Batch batch) {
        return batch.arrowVector(index) instanceof VarCharVector strings ? Utf8Bytes.of(strings) : null;
    }

    @Override
    public FieldVector arrowVector(Batch batch) {
        return batch.arrowVector(index);
    }

    @Override
    public InPlaceValues inPlace(Batch batch) {
        // the batch's view, made for the column's type in its schema: the one bound here, or none
        return type.equals(batch.schema().field(index).type()) ? batch.inPlace(index) : null;
    }

    @Override
    public String toString() {
        return name + "#" + index;
    }
}
