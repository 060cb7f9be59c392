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
 *
 * <p>Given a row test ({@link LateRows}) on some of the columns, each batch's rows are read late:
 * the test's columns are decoded first, and the other columns only for the rows that pass (none
 * decoded when none passes, decoded as without a test when all pass). Rows the test rejects never
 * leave the stream, until the test has passed every row of its sample ({@link LateRows#pays}):
 * then the rest of the row group is decoded whole and left to the operators above to filter.
 */
final class ParquetBatchStream implements BatchStream {
    private final ParquetFileReader reader;
    private final PageReadStore rowGroup;
    private final ColumnChunkDecoder[] decoders;
    private final Schema schema;
    private final String file;
    private final int batchSize;
    private final BufferAllocator allocator;
    private LateRows late; // null without a row test, or once it no longer pays
    private long remaining;
    private boolean closed;

    /**
     * Takes ownership of {@code reader} and {@code rowGroup} (null when no column is read); reads
     * rows late under {@code late} (null: every column of every row decoded).
     */
    ParquetBatchStream(ParquetFileReader reader, PageReadStore rowGroup, ColumnChunkDecoder[] decoders,
            Schema schema, long rowCount, String file, int batchSize, BufferAllocator allocator, LateRows late) {
        this.reader = requireNonNull(reader, "reader is null");
        this.rowGroup = rowGroup;
        this.decoders = requireNonNull(decoders, "decoders is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.file = requireNonNull(file, "file is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.late = late;
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
        while (remaining > 0) {
            int n = (int) Math.min(batchSize, remaining);
            Batch batch = late == null ? decode(n) : decodeLate(n);
            remaining -= n;
            if (late != null && !late.pays()) {
                late = null; // no row rejected: the rest of the row group is decoded whole, the filter above tests it
            }
            if (batch != null) {
                return batch;
            }
        }
        return null;
    }

    private Batch decode(int n) {
        Col[] cols = new Col[decoders.length];
        FieldVector[] vectors = new FieldVector[decoders.length];
        int column = 0;
        try {
            for (; column < decoders.length; column++) {
                decoders[column].decode(n, allocator, cols, vectors, column);
            }
        } catch (RuntimeException | Error e) {
            throw failed(e, vectors, column);
        }
        return Batch.of(schema, cols, vectors, n, allocator); // flat columns as Arrow vectors, nested ones on the heap
    }

    /** The rows of the next {@code n} that pass the row test (null when none does), decoded late. */
    private Batch decodeLate(int n) {
        Col[] cols = new Col[decoders.length];
        FieldVector[] vectors = new FieldVector[decoders.length];
        int count;
        try {
            late.decodeTested(decoders, n, allocator, cols, vectors);
        } catch (RuntimeException | Error e) {
            throw failed(e, vectors, -1);
        }
        try {
            count = late.select(n, allocator, cols, vectors);
        } catch (RuntimeException | Error e) {
            failed(e, vectors, -1);
            throw e; // the test's own failure (the filter above would fail the same way), not the file's
        }
        int i = 0;
        try {
            for (; i < decoders.length; i++) {
                if (late.tested(i)) {
                    continue;
                }
                if (count == 0) {
                    decoders[i].skip(n, allocator);
                } else if (count == n) {
                    decoders[i].decode(n, allocator, cols, vectors, i);
                } else {
                    decoders[i].decodeSelected(n, late.selected(), count, allocator, cols, vectors, i);
                }
            }
            return count == 0 ? null : Batch.of(schema, cols, vectors, count, allocator);
        } catch (RuntimeException | Error e) {
            throw failed(e, vectors, i);
        }
    }

    /**
     * What to throw for a decoding failure of {@code column} (-1: of the row test's columns), once the
     * batch's vectors are released and the stream ended.
     */
    private RuntimeException failed(Throwable e, FieldVector[] vectors, int column) {
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
            return refused; // the task's memory, not the file: a system failure, retried elsewhere
        }
        String what = column < 0 ? "" : "column '" + schema.field(column).name() + "' of ";
        return new SluiceException("cannot decode " + what + "Parquet file " + file + ": " + e.getMessage(), e);
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
