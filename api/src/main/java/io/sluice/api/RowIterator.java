package io.sluice.api;

import static java.util.Objects.requireNonNull;

import io.sluice.common.types.Schema;
import io.sluice.kernels.ArrowRows;
import io.sluice.kernels.Batch;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * A query's rows read as the coordinator streams them ({@link DataFrame#toLocalIterator()}): one
 * batch at a time is held here, and the coordinator fetches only a bounded buffer ahead of this
 * reader, so a result far larger than memory can be read. Close it to stop early: the query is
 * cancelled and its shuffle files removed.
 */
public final class RowIterator implements Iterator<List<Object>>, AutoCloseable {
    /** Where the batches come from: the in-process coordinator or an HTTP response body. */
    interface Source extends AutoCloseable {
        Schema schema();

        /** The next batch's rows, or null at the end. */
        List<List<Object>> nextRows();

        @Override
        void close();
    }

    private final Source source;
    private List<List<Object>> rows = List.of();
    private int position;
    private boolean ended;
    private long batches;

    RowIterator(Source source) {
        this.source = requireNonNull(source, "source is null");
    }

    public Schema schema() {
        return source.schema();
    }

    /** Batches received so far. */
    public long batchesRead() {
        return batches;
    }

    @Override
    public boolean hasNext() {
        while (position == rows.size()) {
            if (ended) {
                return false;
            }
            List<List<Object>> next = source.nextRows();
            if (next == null) {
                ended = true;
                source.close();
                return false;
            }
            batches++;
            rows = next;
            position = 0;
        }
        return true;
    }

    @Override
    public List<Object> next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return rows.get(position++);
    }

    @Override
    public void close() {
        source.close();
    }

    /** The rows of a coordinator's result stream in this process. */
    static RowIterator of(io.sluice.coordinator.ResultStream stream) {
        return new RowIterator(new Source() {
            @Override
            public Schema schema() {
                return stream.schema();
            }

            @Override
            public List<List<Object>> nextRows() {
                try (Batch batch = stream.next()) {
                    return batch == null ? null : ArrowRows.of(batch);
                }
            }

            @Override
            public void close() {
                stream.close();
            }
        });
    }
}
