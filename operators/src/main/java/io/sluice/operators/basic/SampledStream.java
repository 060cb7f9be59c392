package io.sluice.operators.basic;

import static java.util.Objects.requireNonNull;

import io.sluice.kernels.Batch;
import io.sluice.kernels.BatchStream;
import io.sluice.operators.IntList;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A partition's input with each batch replaced by the rows a {@link Draw} picks from it, in the
 * order picked (a row picked twice appears twice); batches of which nothing is picked are skipped.
 * The sampling operators differ only in their draw, asked once per batch.
 */
final class SampledStream implements BatchStream {
    /** Appends to {@code picked} the positions, ascending, of the rows kept from a batch of {@code rows}. */
    interface Draw {
        void pick(int rows, IntList picked);
    }

    private final BatchStream input;
    private final Draw draw;
    private final BufferAllocator allocator;
    private final IntList picked = new IntList(1024);

    SampledStream(BatchStream input, Draw draw, BufferAllocator allocator) {
        this.input = requireNonNull(input, "input is null");
        this.draw = requireNonNull(draw, "draw is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    @Override
    public Batch next() {
        while (true) {
            Batch batch = input.next();
            if (batch == null) {
                return null;
            }
            try (Batch b = batch) {
                picked.clear();
                draw.pick(b.rowCount(), picked);
                if (picked.size() > 0) {
                    return b.gather(picked.array(), picked.size(), allocator);
                }
            }
        }
    }

    @Override
    public void close() {
        input.close();
    }
}
