package io.sluice.cluster.protocol;

import java.util.Arrays;

/**
 * One task: a stage plan to run on one partition. {@code plan} is the stage plan serialized with
 * {@link io.sluice.cluster.serialization.Kryos}; it stays opaque bytes here so that the coordinator
 * serializes a stage once and sends it to every task, and a worker that cannot read it fails only
 * that task. {@code attempt} counts re-runs of the same partition, from 0.
 *
 * <p>The array is not copied: whoever builds a description must not change the bytes afterwards.
 * {@code equals} and {@code hashCode} compare the bytes' content.
 */
public record TaskDescription(String jobId, String taskId, int stageId, int partition, int attempt, byte[] plan)
        implements SluiceMessage {
    public TaskDescription {
        Checks.nonBlank(jobId, "jobId");
        Checks.nonBlank(taskId, "taskId");
        Checks.nonNegative(stageId, "stageId");
        Checks.nonNegative(partition, "partition");
        Checks.nonNegative(attempt, "attempt");
        if (plan == null) {
            throw new NullPointerException("plan is null");
        }
        if (plan.length == 0) {
            throw new IllegalArgumentException("plan is empty");
        }
    }

    /**
     * This task as attempt {@code n}: the same launch, its own id ({@code <launch id>-a<n>}), so that
     * reports of different attempts are told apart while their map outputs are known to be one.
     */
    public TaskDescription asAttempt(int n) {
        return new TaskDescription(jobId, launchId() + "-a" + n, stageId, partition, n, plan);
    }

    /** The id shared by every attempt of this task. */
    public String launchId() {
        String suffix = "-a" + attempt;
        return taskId.endsWith(suffix) ? taskId.substring(0, taskId.length() - suffix.length()) : taskId;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TaskDescription t && jobId.equals(t.jobId) && taskId.equals(t.taskId)
                && stageId == t.stageId && partition == t.partition && attempt == t.attempt
                && Arrays.equals(plan, t.plan);
    }

    @Override
    public int hashCode() {
        return 31 * taskId.hashCode() + Arrays.hashCode(plan);
    }

    @Override
    public String toString() {
        return "TaskDescription[jobId=" + jobId + ", taskId=" + taskId + ", stageId=" + stageId + ", partition="
                + partition + ", attempt=" + attempt + ", plan=" + plan.length + " bytes]";
    }
}
