package io.sluice.cluster.protocol;

import static java.util.Objects.requireNonNull;

import org.apache.pekko.actor.typed.ActorRef;

/**
 * A task asks where the blocks of reduce partition {@code partition} of shuffle {@code shuffleId}
 * (of job {@code jobId}) live, as Spark's reducers ask the driver's map output tracker. Tasks
 * carry no map output table: each reader asks for the one column it reads when it starts, so a
 * task message stays small however many map and reduce tasks a shuffle has.
 */
public record GetMapOutputs(String jobId, String shuffleId, int partition, ActorRef<MapOutputs> replyTo)
        implements CoordinatorCommand {
    public GetMapOutputs {
        Checks.nonBlank(jobId, "jobId");
        Checks.nonBlank(shuffleId, "shuffleId");
        Checks.nonNegative(partition, "partition");
        requireNonNull(replyTo, "replyTo is null");
    }
}
