package io.sluice.datasource.parquet;

import static java.util.Objects.requireNonNull;

import io.sluice.datasource.file.ScanPartition;
import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import java.util.List;
import java.util.function.Function;

/**
 * The batches of several row groups of one file, one after another: each row group is opened when
 * the previous one is used up and closed then, so one row group's pages are held at a time.
 */
final class RowGroupsBatchStream implements BatchStream {
    private final List<ScanPartition> rowGroups;
    private final Function<ScanPartition, BatchStream> open;
    private int next;
    private BatchStream current;
    private boolean closed;

    RowGroupsBatchStream(List<ScanPartition> rowGroups, Function<ScanPartition, BatchStream> open) {
        this.rowGroups = List.copyOf(rowGroups);
        this.open = requireNonNull(open, "open is null");
    }

    @Override
    public Batch next() {
        if (closed) {
            throw new IllegalStateException("stream is closed");
        }
        while (true) {
            if (current == null) {
                if (next == rowGroups.size()) {
                    return null;
                }
                current = open.apply(rowGroups.get(next++));
            }
            Batch batch = current.next();
            if (batch != null) {
                return batch;
            }
            BatchStream done = current;
            current = null;
            done.close();
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (current != null) {
            current.close();
            current = null;
        }
    }
}
