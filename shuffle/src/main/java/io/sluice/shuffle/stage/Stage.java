package io.sluice.shuffle.stage;

import static java.util.Objects.requireNonNull;

import io.sluice.shuffle.ShuffleWriterExec;
import java.util.List;

/**
 * A piece of the physical plan between repartition boundaries, ending in a shuffle write. Runs as
 * one task per partition of the writer's input once every parent stage has finished.
 */
public record Stage(int id, String shuffleId, ShuffleWriterExec plan, List<Integer> parents) {
    public Stage {
        requireNonNull(shuffleId, "shuffleId is null");
        requireNonNull(plan, "plan is null");
        parents = List.copyOf(parents);
    }

    public int taskCount() {
        return plan.input().properties().partitioning().partitionCount();
    }
}
