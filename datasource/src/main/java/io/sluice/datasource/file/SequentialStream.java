package io.sluice.datasource.file;

import static java.util.Objects.requireNonNull;

import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import java.util.function.IntFunction;

/**
 * The batches of {@code count} streams, one after another, each opened only when the one before it
 * is drained and closed, so a task reading many files (or a run of a Parquet file's row groups)
 * holds one open at a time.
 */
public final class SequentialStream implements BatchStream {
    private final int count;
    private final IntFunction<BatchStream> open;
    private int next;
    private BatchStream current;

    public SequentialStream(int count, IntFunction<BatchStream> open) {
        if (count < 0) {
            throw new IllegalArgumentException("count is negative: " + count);
        }
        this.count = count;
        this.open = requireNonNull(open, "open is null");
    }

    @Override
    public Batch next() {
        while (true) {
            if (current == null) {
                if (next == count) {
                    return null;
                }
                current = open.apply(next++);
            }
            Batch batch = current.next();
            if (batch != null) {
                return batch;
            }
            BatchStream drained = current;
            current = null;
            drained.close();
        }
    }

    @Override
    public void close() {
        if (current != null) {
            BatchStream open = current;
            current = null;
            open.close();
        }
        next = count;
    }
}
