package io.sluice.datasource.parquet;

import io.sluice.kernels.ArrowKernels;
import io.sluice.kernels.Col;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/** Decodes one column of a Parquet row group, a batch at a time. */
interface ColumnChunkDecoder {
    /**
     * Decodes the next {@code n} values of the column (the caller guarantees that many remain) into
     * {@code vectors[column]} as an Arrow vector from {@code allocator} (every flat column: strings as
     * their bytes, numbers as fixed-width vectors), or into {@code cols[column]} as a heap column
     * (nested columns, until they decode to vectors), which the caller then owns. A decoder that
     * throws leaves nothing allocated behind.
     */
    void decode(int n, BufferAllocator allocator, Col[] cols, FieldVector[] vectors, int column);

    /**
     * Of the next {@code n} values, decodes only rows {@code selected[0..count)} (ascending, within
     * {@code n}) as {@link #decode} decodes all of them; the others are passed over. This default
     * decodes all and keeps the selected; a decoder that can skip values overrides it.
     */
    default void decodeSelected(int n, int[] selected, int count, BufferAllocator allocator, Col[] cols,
            FieldVector[] vectors, int column) {
        Col[] all = new Col[1];
        FieldVector[] allVectors = new FieldVector[1];
        decode(n, allocator, all, allVectors, 0);
        try (FieldVector vector = allVectors[0]) {
            if (all[0] != null) {
                cols[column] = all[0].gather(selected, count);
            } else {
                vectors[column] = ArrowKernels.gather(vector, selected, count, allocator);
            }
        }
    }

    /** Passes over the next {@code n} values. This default decodes and drops them. */
    default void skip(int n, BufferAllocator allocator) {
        Col[] all = new Col[1];
        FieldVector[] allVectors = new FieldVector[1];
        decode(n, allocator, all, allVectors, 0);
        if (allVectors[0] != null) {
            allVectors[0].close();
        }
    }
}
