package io.sluice.cluster.protocol;

import io.sluice.operators.MapStatus;
import java.util.List;

/**
 * The answer to {@link GetMapOutputs}: per map task, in map order, its worker, shuffle server and
 * the size of the one block asked for (each status has exactly one size), or an {@code error}
 * when the coordinator knows no such shuffle (its job ended, or the output was lost).
 */
public record MapOutputs(List<MapStatus> blocks, String error) implements SluiceMessage {
    public MapOutputs {
        if ((blocks == null) == (error == null)) {
            throw new IllegalArgumentException("exactly one of blocks and error must be set");
        }
        blocks = blocks == null ? null : MapOutputColumn.checkColumn(blocks);
    }

    public static MapOutputs of(List<MapStatus> blocks) {
        return new MapOutputs(blocks, null);
    }

    public static MapOutputs failed(String error) {
        return new MapOutputs(null, error);
    }
}
