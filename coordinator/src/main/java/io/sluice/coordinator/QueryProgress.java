package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.type.TypeReference;
import io.sluice.coordinator.scheduler.DagScheduler.StageProgress;
import java.util.List;

/**
 * What a client follows of one query while it runs, read from the monitoring API's answer to
 * {@code GET /api/v1/queries/{id}} (docs/monitoring.md): its state and each stage's state and task
 * counts. Fields the answer has beyond these are ignored, so a newer coordinator's answer reads.
 */
public record QueryProgress(String id, String state, List<Stage> stages) {
    public QueryProgress {
        requireNonNull(id, "id is null");
        requireNonNull(state, "state is null");
        stages = List.copyOf(requireNonNull(stages, "stages is null"));
    }

    /** One stage: its id, state and how many of its tasks finished. */
    public record Stage(int id, String state, int tasks, int tasksCompleted) {
        public Stage {
            requireNonNull(state, "state is null");
        }
    }

    /** Whether the query still runs. */
    public boolean running() {
        return state.equals("RUNNING");
    }

    /** The stages that run now, in id order, with their finished and total tasks. */
    public List<StageProgress> runningStages() {
        return stages.stream().filter(s -> s.state().equals("RUNNING"))
                .sorted(java.util.Comparator.comparingInt(Stage::id))
                .map(s -> new StageProgress(s.id(), s.tasksCompleted(), s.tasks())).toList();
    }

    /** The answer of {@code GET /api/v1/queries/{id}}; anything else is an {@link java.io.UncheckedIOException}. */
    public static QueryProgress fromJson(String json) {
        return Json.read(json, TYPE);
    }

    private static final TypeReference<QueryProgress> TYPE = new TypeReference<>() {
    };
}
