package io.sluice.operators.basic;

import static java.util.Objects.requireNonNull;

import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.operators.IntList;
import java.util.Arrays;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A partition's input with each batch replaced by the rows a {@link Draw} picks from it, in the
 * order picked (a row picked twice appears twice); batches of which nothing is picked are skipped.
 * Sampling with and without replacement differ only in their draw, asked once per batch.
 */
final class SampledStream implements BatchStream {
    /** Appends to {@code picked} the positions, ascending, of the rows kept from a batch of {@code rows}. */
    interface Draw {
        void pick(int rows, IntList picked);
    }

    private final BatchStream input;
    private final Draw draw;
    private final BufferAllocator allocator;
    private final int maxRows;
    private final IntList picked = new IntList(1024);
    private Batch current; // the input batch whose picked rows are still being handed out
    private int offset; // how many of them were

    /** Batches of at most {@code maxRows} (a draw with replacement may pick more rows than a batch has). */
    SampledStream(BatchStream input, Draw draw, BufferAllocator allocator, int maxRows) {
        this.input = requireNonNull(input, "input is null");
        this.draw = requireNonNull(draw, "draw is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.maxRows = Math.max(1, maxRows);
    }

    @Override
    public Batch next() {
        while (true) {
            if (current != null) {
                int count = Math.min(maxRows, picked.size() - offset);
                if (count > 0) {
                    int[] selected = offset == 0 ? picked.array() : Arrays.copyOfRange(picked.array(), offset, offset + count);
                    offset += count;
                    return current.gather(selected, count, allocator);
                }
                current.close();
                current = null;
            }
            current = input.next();
            if (current == null) {
                return null;
            }
            picked.clear();
            offset = 0;
            draw.pick(current.rowCount(), picked);
        }
    }

    @Override
    public void close() {
        if (current != null) {
            current.close();
            current = null;
        }
        input.close();
    }
}
