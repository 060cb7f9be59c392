package io.sluice.datasource.parquet;

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
}
