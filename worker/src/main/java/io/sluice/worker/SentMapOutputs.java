package io.sluice.worker;

import static java.util.Objects.requireNonNull;

import io.sluice.cluster.protocol.MapOutputColumn;
import io.sluice.operators.MapStatus;
import io.sluice.shuffle.MapOutputLocator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A task's map output locator: answers from the columns the coordinator sent with the task (the
 * partitions it was expected to read, located at dispatch) without a round trip, and asks
 * {@code fallback} (the coordinator) for any other. The sent locations are as current as an ask
 * made at dispatch; one that went stale since (its server lost) fails the fetch, which the
 * scheduler recovers from as from any lost output.
 */
final class SentMapOutputs implements MapOutputLocator {
    private final Map<String, List<MapStatus>> columns = new HashMap<>();
    private final MapOutputLocator fallback;

    SentMapOutputs(List<MapOutputColumn> sent, MapOutputLocator fallback) {
        for (MapOutputColumn column : sent) {
            columns.put(key(column.shuffleId(), column.partition()), column.blocks());
        }
        this.fallback = requireNonNull(fallback, "fallback is null");
    }

    @Override
    public List<MapStatus> blocks(String jobId, String shuffleId, int partition) {
        List<MapStatus> sent = columns.get(key(shuffleId, partition));
        return sent != null ? sent : fallback.blocks(jobId, shuffleId, partition);
    }

    private static String key(String shuffleId, int partition) {
        return shuffleId + "/" + partition;
    }
}
