package io.sluice.cluster.protocol;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * Asks a worker to run a task; the worker answers {@link TaskFinished} to {@code replyTo}, which
 * must be the coordinator it registered with, and {@code session} that registration's token.
 * {@code mapOutputs} holds the block locations the coordinator knew at dispatch for the shuffle
 * partitions the task is expected to read: its readers take them instead of asking
 * ({@link GetMapOutputs}); a partition not among them is asked for as before. At most one column
 * per shuffle and partition.
 */
public record RunTask(TaskDescription task, ActorRef<CoordinatorCommand> replyTo, String session,
        List<MapOutputColumn> mapOutputs) implements WorkerCommand {
    public RunTask {
        requireNonNull(task, "task is null");
        requireNonNull(replyTo, "replyTo is null");
        Checks.nonBlank(session, "session");
        mapOutputs = List.copyOf(requireNonNull(mapOutputs, "mapOutputs is null"));
        if (mapOutputs.stream().map(c -> c.shuffleId() + "/" + c.partition()).distinct().count() != mapOutputs.size()) {
            throw new IllegalArgumentException("two map output columns for the same shuffle partition in task "
                    + task.taskId());
        }
    }

    /** A task whose readers ask where their blocks are. */
    public RunTask(TaskDescription task, ActorRef<CoordinatorCommand> replyTo, String session) {
        this(task, replyTo, session, List.of());
    }
}
