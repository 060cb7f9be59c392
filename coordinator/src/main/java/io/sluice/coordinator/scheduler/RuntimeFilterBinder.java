package io.sluice.coordinator.scheduler;

import io.sluice.operators.ExecutionPlan;
import io.sluice.operators.ExecutionPlans;
import io.sluice.operators.MapStatus;
import io.sluice.operators.filter.RuntimeFilter;
import io.sluice.operators.filter.RuntimeFilterExec;
import io.sluice.shuffle.ShuffleWriterExec;
import io.sluice.shuffle.stage.Stage;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One job's runtime filters: merged from the partial filters a build stage's tasks publish, then
 * bound into the probe stages that run after it. Owned by the job's thread, like the rest of its
 * scheduling state.
 */
final class RuntimeFilterBinder {
    private static final Logger LOG = LoggerFactory.getLogger(RuntimeFilterBinder.class);

    private final String jobId;
    /** Runtime filters merged from their build stages, by filter id. */
    private final Map<String, RuntimeFilter> filters = new HashMap<>();

    RuntimeFilterBinder(String jobId) {
        this.jobId = jobId;
    }

    /**
     * Merges the partial runtime filters a stage's tasks published: a filter every task published
     * is recorded; one some task did not publish (it stopped early) is not, and its probe side
     * then runs unfiltered. A stage run again (lost outputs) publishes the same filters; the
     * first record stands.
     */
    void record(Stage stage, List<MapStatus> statuses) {
        Map<String, RuntimeFilter> merged = new HashMap<>();
        Map<String, Integer> partials = new HashMap<>();
        for (MapStatus status : statuses) {
            status.published().forEach((key, value) -> {
                if (value instanceof RuntimeFilter partial) {
                    merged.merge(key, partial, RuntimeFilter::merge);
                    partials.merge(key, 1, Integer::sum);
                }
            });
        }
        merged.forEach((key, filter) -> {
            if (partials.get(key) == statuses.size() && !filters.containsKey(key)) {
                filters.put(key, filter);
                LOG.debug("job {}: runtime filter {} from stage {}: {}", jobId, key, stage.id(), filter);
            }
        });
    }

    /**
     * The stage plan with each unbound runtime filter bound to its recorded filter, or removed
     * when none was recorded (its build stage, a parent, is done by now); the same plan when it
     * has no unbound filter.
     */
    ShuffleWriterExec bind(ShuffleWriterExec writer) {
        ExecutionPlan input = ExecutionPlans.transformUp(writer.input(), node -> {
            if (node instanceof RuntimeFilterExec f && !f.bound()) {
                RuntimeFilter filter = filters.get(f.filterId());
                return filter == null ? f.input() : f.bind(filter);
            }
            return node;
        });
        if (input == writer.input()) {
            return writer;
        }
        return new ShuffleWriterExec(input, writer.outputPartitioning(), writer.shuffleId())
                .withEstimatedRows(writer.estimatedRows());
    }
}
