package io.sluice.coordinator.scheduler;

import static java.util.Objects.requireNonNull;

import io.sluice.kernels.Batch;
import io.sluice.operators.MapStatus;
import io.sluice.shuffle.ShuffleClient;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Reads a single-partition stage's output on the coordinator: block 0 of every map task, in map
 * order, over the shuffle service. Used for query results and for range-partitioning samples.
 */
public final class BlockFetcher {
    private final ShuffleClient client;
    private final BufferAllocator allocator;

    public BlockFetcher(ShuffleClient client, BufferAllocator allocator) {
        this.client = requireNonNull(client, "client is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    public BufferAllocator allocator() {
        return allocator;
    }

    /** The batches of every map output's block 0 of job {@code jobId}'s shuffle; the caller closes them. */
    public List<Batch> fetchAll(String jobId, String shuffleId, List<MapStatus> statuses) {
        List<Batch> batches = new ArrayList<>();
        try {
            for (int map = 0; map < statuses.size(); map++) {
                MapStatus status = statuses.get(map);
                if (status.bytesPerPartition()[0] == 0) {
                    continue;
                }
                batches.addAll(fetch(jobId, shuffleId, map, status));
            }
            return batches;
        } catch (RuntimeException e) {
            batches.forEach(Batch::close);
            throw e;
        }
    }

    /** The batches of map output {@code map}'s block 0 (none when it is empty); the caller closes them. */
    public List<Batch> fetch(String jobId, String shuffleId, int map, MapStatus status) {
        if (status.bytesPerPartition()[0] == 0) {
            return List.of();
        }
        try {
            return client.fetchBatches(status.host(), status.port(), jobId, shuffleId, map, 0,
                    status.bytesPerPartition()[0], allocator);
        } catch (RuntimeException e) {
            throw new TaskFailedException("could not read the output of " + shuffleId + ": " + e.getMessage());
        }
    }
}
