package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * What the coordinator's dispatcher holds at one moment: registered workers, their task slots in
 * all, the slots free for a new task now (on reachable workers, not held by an attempt), task
 * attempts running on them, tasks waiting for a slot, and the workers excluded for failing (by
 * id; see {@link ExcludeList}).
 */
@JsonPropertyOrder({"status", "workers", "slots", "free_slots", "running_tasks", "queued_tasks", "excluded_workers"})
public record ClusterLoad(int workers, int slots, @JsonProperty("free_slots") int freeSlots,
        @JsonProperty("running_tasks") int runningTasks, @JsonProperty("queued_tasks") int queuedTasks,
        @JsonProperty("excluded_workers") List<String> excludedWorkers) {
    public ClusterLoad {
        if (workers < 0 || slots < 0 || freeSlots < 0 || freeSlots > slots || runningTasks < 0 || queuedTasks < 0) {
            throw new IllegalArgumentException("bad count in " + workers + ", " + slots + ", " + freeSlots + ", "
                    + runningTasks + ", " + queuedTasks);
        }
        excludedWorkers = List.copyOf(requireNonNull(excludedWorkers, "excludedWorkers is null"));
    }

    /** "ok", or "no workers" when none has joined. */
    @JsonProperty("status")
    public String status() {
        return workers == 0 ? "no workers" : "ok";
    }

    /** One line of JSON, as {@code GET /v1/health} answers: the status first, then the counts. */
    public String toJson() {
        return Json.write(this);
    }
}
