package io.sluice.cluster.protocol;

import static java.util.Objects.requireNonNull;

import org.apache.pekko.actor.typed.ActorRef;

/**
 * A task asks where the blocks of reduce partition {@code partition} of shuffle {@code shuffleId}
 * (of job {@code jobId}) live, as Spark's reducers ask the driver's map output tracker. Tasks
 * carry no map output table, only the columns of the partitions they are expected to read
 * ({@link RunTask#mapOutputs}); a reader of another partition asks for its one column when it
 * starts, so a task message stays small however many map and reduce tasks a shuffle has. {@code workerId} and
 * {@code session} name the asking worker and its registration's token ({@link WorkerRegistered}):
 * the coordinator answers only registered workers.
 */
public record GetMapOutputs(String jobId, String shuffleId, int partition, ActorRef<MapOutputs> replyTo,
        String workerId, String session) implements CoordinatorCommand {
    public GetMapOutputs {
        Checks.nonBlank(jobId, "jobId");
        Checks.nonBlank(shuffleId, "shuffleId");
        Checks.nonNegative(partition, "partition");
        requireNonNull(replyTo, "replyTo is null");
        Checks.nonBlank(workerId, "workerId");
        Checks.nonBlank(session, "session");
    }
}
