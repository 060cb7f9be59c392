package io.sluice.datasource.parquet;

import static java.util.Objects.requireNonNull;

import io.sluice.common.Closeables;
import io.sluice.common.SluiceException;
import io.sluice.common.types.Schema;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.kernels.Col;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;

/**
 * Streams one Parquet row group in batches of at most {@code batchSize} rows. Owns the file reader
 * and the row group's pages; {@link #close()} releases both.
 */
final class ParquetBatchStream implements BatchStream {
    private final ParquetFileReader reader;
    private final PageReadStore rowGroup;
    private final ColumnChunkDecoder[] decoders;
    private final Schema schema;
    private final String file;
    private final int batchSize;
    private final BufferAllocator allocator;
    private long remaining;
    private boolean closed;

    /** Takes ownership of {@code reader} and {@code rowGroup} (null when no column is read). */
    ParquetBatchStream(ParquetFileReader reader, PageReadStore rowGroup, ColumnChunkDecoder[] decoders,
            Schema schema, long rowCount, String file, int batchSize, BufferAllocator allocator) {
        this.reader = requireNonNull(reader, "reader is null");
        this.rowGroup = rowGroup;
        this.decoders = requireNonNull(decoders, "decoders is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.file = requireNonNull(file, "file is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        if (decoders.length != schema.size()) {
            throw new IllegalArgumentException(decoders.length + " decoders for " + schema.size() + " columns");
        }
        if (batchSize < 1 || rowCount < 0) {
            throw new IllegalArgumentException("batchSize " + batchSize + ", rowCount " + rowCount);
        }
        this.batchSize = batchSize;
        this.remaining = rowCount;
    }

    @Override
    public Batch next() {
        if (closed) {
            throw new IllegalStateException("stream is closed");
        }
        if (remaining == 0) {
            return null;
        }
        int n = (int) Math.min(batchSize, remaining);
        Col[] cols = new Col[decoders.length];
        FieldVector[] vectors = new FieldVector[decoders.length];
        int column = 0;
        try {
            for (; column < decoders.length; column++) {
                decoders[column].decode(n, allocator, cols, vectors, column);
            }
        } catch (RuntimeException | Error e) {
            remaining = 0;
            for (FieldVector v : vectors) {
                if (v != null) {
                    v.close();
                }
            }
            if (e instanceof Error error) {
                throw error;
            }
            if (e instanceof org.apache.arrow.memory.OutOfMemoryException refused) {
                throw refused; // the task's memory, not the file: a system failure, retried elsewhere
            }
            throw new SluiceException("cannot decode column '" + schema.field(column).name() + "' of Parquet file " + file
                    + ": " + e.getMessage(), e);
        }
        remaining -= n;
        return Batch.of(schema, cols, vectors, n, allocator); // flat columns as Arrow vectors, nested ones on the heap
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (rowGroup != null) {
                rowGroup.close();
            }
        } finally {
            Closeables.closeLogging(reader, file);
        }
    }
}
