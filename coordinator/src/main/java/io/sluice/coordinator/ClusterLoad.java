package io.sluice.coordinator;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What the coordinator's dispatcher holds at one moment: registered workers, their task slots in
 * all, the slots free for a new task now (on reachable workers, not held by an attempt), task
 * attempts running on them, tasks waiting for a slot, and the workers excluded for failing (by
 * id; see {@link ExcludeList}).
 */
public record ClusterLoad(int workers, int slots, int freeSlots, int runningTasks, int queuedTasks,
        List<String> excludedWorkers) {
    public ClusterLoad {
        if (workers < 0 || slots < 0 || freeSlots < 0 || freeSlots > slots || runningTasks < 0 || queuedTasks < 0) {
            throw new IllegalArgumentException("bad count in " + workers + ", " + slots + ", " + freeSlots + ", "
                    + runningTasks + ", " + queuedTasks);
        }
        excludedWorkers = List.copyOf(requireNonNull(excludedWorkers, "excludedWorkers is null"));
    }

    /** One line of JSON, as {@code GET /v1/health} answers: status "ok", or "no workers" when none has joined. */
    public String toJson() {
        StringBuilder excluded = new StringBuilder("[");
        for (String id : excludedWorkers) {
            excluded.append(excluded.length() > 1 ? "," : "").append('"').append(Json.escape(id)).append('"');
        }
        excluded.append(']');
        return "{\"status\":\"" + (workers == 0 ? "no workers" : "ok") + "\",\"workers\":" + workers + ",\"slots\":"
                + slots + ",\"free_slots\":" + freeSlots + ",\"running_tasks\":" + runningTasks + ",\"queued_tasks\":" + queuedTasks
                + ",\"excluded_workers\":" + excluded + "}";
    }
}
