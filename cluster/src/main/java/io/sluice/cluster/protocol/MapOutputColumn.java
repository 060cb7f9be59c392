package io.sluice.cluster.protocol;

import static java.util.Objects.requireNonNull;

import io.sluice.operators.MapStatus;
import java.util.List;

/**
 * Where the blocks of reduce partition {@code partition} of shuffle {@code shuffleId} live: per map
 * task, in map order, its worker, shuffle server and the size of that one block (each status has
 * exactly one size). The answer to {@link GetMapOutputs}, and what a {@link RunTask} carries for
 * the partitions its task reads when the coordinator knows them at dispatch, so the task need not
 * ask.
 */
public record MapOutputColumn(String shuffleId, int partition, List<MapStatus> blocks) implements SluiceMessage {
    public MapOutputColumn {
        Checks.nonBlank(shuffleId, "shuffleId");
        Checks.nonNegative(partition, "partition");
        blocks = checkColumn(blocks);
    }

    /** {@code blocks}, copied, once each status is checked to carry exactly one block size. */
    static List<MapStatus> checkColumn(List<MapStatus> blocks) {
        List<MapStatus> copy = List.copyOf(requireNonNull(blocks, "blocks is null"));
        for (MapStatus status : copy) {
            if (status.bytesPerPartition().length != 1) {
                throw new IllegalArgumentException("a map output column carries one block size per map, not "
                        + status.bytesPerPartition().length);
            }
        }
        return copy;
    }
}
