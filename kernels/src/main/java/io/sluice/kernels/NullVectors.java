package io.sluice.kernels;

import io.sluice.common.types.Field;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/** Columns of NULLs as Arrow vectors: a column a file lacks, the unmatched side of an outer join. */
public final class NullVectors {
    private NullVectors() {
    }

    /** {@code n} NULLs of {@code field}'s type, as a new vector from {@code allocator} that the caller owns. */
    public static FieldVector of(Field field, int n, BufferAllocator allocator) {
        FieldVector vector = field.toArrow().createVector(allocator);
        try {
            vector.allocateNew();
            vector.setValueCount(n);
        } catch (RuntimeException | Error e) {
            vector.close();
            throw e;
        }
        return vector;
    }
}
