package io.sluice.coordinator;

/**
 * What the coordinator's dispatcher holds at one moment: registered workers, their task slots in
 * all, task attempts running on them and tasks waiting for a slot.
 */
public record ClusterLoad(int workers, int slots, int runningTasks, int queuedTasks) {
    public ClusterLoad {
        if (workers < 0 || slots < 0 || runningTasks < 0 || queuedTasks < 0) {
            throw new IllegalArgumentException("negative count in " + workers + ", " + slots + ", " + runningTasks + ", "
                    + queuedTasks);
        }
    }

    /** One line of JSON, as {@code GET /v1/health} answers: status "ok", or "no workers" when none has joined. */
    public String toJson() {
        return "{\"status\":\"" + (workers == 0 ? "no workers" : "ok") + "\",\"workers\":" + workers + ",\"slots\":"
                + slots + ",\"running_tasks\":" + runningTasks + ",\"queued_tasks\":" + queuedTasks + "}";
    }
}
