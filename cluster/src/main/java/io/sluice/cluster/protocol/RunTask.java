package io.sluice.cluster.protocol;

import static java.util.Objects.requireNonNull;

import org.apache.pekko.actor.typed.ActorRef;

/**
 * Asks a worker to run a task; the worker answers {@link TaskFinished} to {@code replyTo}, which
 * must be the coordinator it registered with, and {@code session} that registration's token.
 */
public record RunTask(TaskDescription task, ActorRef<CoordinatorCommand> replyTo, String session)
        implements WorkerCommand {
    public RunTask {
        requireNonNull(task, "task is null");
        requireNonNull(replyTo, "replyTo is null");
        Checks.nonBlank(session, "session");
    }
}
