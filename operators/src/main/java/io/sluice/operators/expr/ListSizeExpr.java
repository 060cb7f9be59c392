package io.sluice.operators.expr;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.DataType;
import io.sluice.kernels.Batch;
import io.sluice.kernels.Col;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.complex.ListVector;

/**
 * {@code size}/{@code cardinality} of a list or map: over a {@code ListVector} or {@code MapVector}
 * the batch holds (a scan's nested column, a struct field of one) the differences of its offsets,
 * no value assembled; otherwise {@code general}, the evaluation over the Java form.
 */
record ListSizeExpr(PhysicalExpr container, PhysicalExpr general) implements PhysicalExpr {
    ListSizeExpr {
        requireNonNull(container, "container is null");
        requireNonNull(general, "general is null");
    }

    @Override
    public DataType type() {
        return DataType.INT32;
    }

    @Override
    public Col evaluate(Batch batch) {
        if (!(container.arrowVector(batch) instanceof ListVector list) || list.getValueCount() != batch.rowCount()) {
            return general.evaluate(batch);
        }
        int n = list.getValueCount();
        long[] sizes = new long[n];
        boolean[] nulls = null;
        ArrowBuf offsets = list.getOffsetBuffer();
        int start = n == 0 ? 0 : offsets.getInt(0);
        for (int i = 0; i < n; i++) {
            int end = offsets.getInt((long) (i + 1) * ListVector.OFFSET_WIDTH);
            if (list.isNull(i)) {
                if (nulls == null) {
                    nulls = new boolean[n];
                }
                nulls[i] = true;
            } else {
                sizes[i] = end - start;
            }
            start = end;
        }
        return Col.ofLongs(DataType.INT32, sizes, nulls);
    }

    @Override
    public String toString() {
        return "size(" + container + ")";
    }
}
