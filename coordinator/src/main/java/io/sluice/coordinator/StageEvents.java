package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import io.sluice.coordinator.monitor.EventBus;
import io.sluice.coordinator.monitor.QueryEvent;
import io.sluice.coordinator.scheduler.DagScheduler;
import io.sluice.shuffle.ShuffleWriterExec;
import java.util.List;

/**
 * The scheduler's stage submissions and completions as monitoring events; told on the job's
 * thread, it only posts (never blocks). Sampling runs (split points) are not stages of the plan
 * and are left out.
 */
final class StageEvents implements DagScheduler.StageListener {
    private final EventBus bus;

    StageEvents(EventBus bus) {
        this.bus = requireNonNull(bus, "bus is null");
    }

    @Override
    public void stageSubmitted(String jobId, int stageId, ShuffleWriterExec plan, List<Integer> partitions) {
        if (stageId < DagScheduler.SAMPLE_STAGE_OFFSET) {
            bus.post(new QueryEvent.StageSubmitted(jobId, stageId, partitions, System.currentTimeMillis()));
        }
    }

    @Override
    public void stageCompleted(String jobId, int stageId) {
        if (stageId < DagScheduler.SAMPLE_STAGE_OFFSET) {
            bus.post(new QueryEvent.StageCompleted(jobId, stageId, System.currentTimeMillis()));
        }
    }
}
