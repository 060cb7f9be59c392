package io.sluice.shuffle;

import io.sluice.operators.MapStatus;
import java.util.List;

/**
 * Where the blocks of one reduce partition live, asked when a {@link ShuffleReaderExec} whose map
 * outputs were not bound into the plan starts reading (a worker answers from the locations sent
 * with the task, else asks its coordinator). Tasks find it as a {@code TaskContext} service.
 */
@FunctionalInterface
public interface MapOutputLocator {
    /**
     * Per map task, in map order, its worker, shuffle server and the size of block
     * {@code (map, partition)} of {@code shuffleId}: each status has exactly one size. Fails with an
     * {@link IllegalStateException} when the outputs are not known (any more).
     */
    List<MapStatus> blocks(String jobId, String shuffleId, int partition);
}
